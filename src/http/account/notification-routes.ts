import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConnectionsService } from '../../connectors/connections-service.ts';
import { logoTooLarge } from '../../domain/recipients/logo.ts';
import {
  mayEditRecipientSettings,
  type RecipientSettingsService,
} from '../../domain/recipients/settings-service.ts';
import { authorOf } from '../shared/author.ts';
import { logoUploadOf, readLogoForms } from '../shared/logo-upload.ts';
import { userOf } from '../shared/principal.ts';
import { type PageContextOf, SIGNED_IN, sendPage } from './context.ts';
import { fieldErrors } from './field-errors.ts';
import { list, query, text } from './form.ts';
import {
  formOf,
  type NotificationsForm,
  type NotificationsPageState,
  notificationsPage,
} from './views/notifications-page.ts';

const FIELDS = {
  email_steps: { name: 'email_steps', label: 'notifications.emailSteps' },
  sms_steps: { name: 'sms_steps', label: 'notifications.smsSteps' },
  sender_name: { name: 'sender_name', label: 'notifications.senderName' },
  colour: { name: 'colour', label: 'notifications.colour' },
  locale: { name: 'locale', label: 'notifications.locale' },
} as const;

const LOGO_FIELDS = { logo: { name: 'logo', label: 'notifications.logo' } } as const;

/** What the settings page uses. */
interface NotificationRoutesContext {
  recipientSettings: RecipientSettingsService;
  connections: Pick<ConnectionsService, 'list'>;
}

/**
 * The colour is a text box (authoritative, and the only one where a browser has no picker) beside
 * a picker, and a form without script cannot keep them in step: a picker changed from what the
 * page showed wins when the text box was left as shown or emptied; else the text box (emptied
 * alone: no colour).
 */
function chosenColour(request: FastifyRequest): string {
  const typed = text(request, 'colour', 20);
  const picked = text(request, 'colour_picker', 20);
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  const pickerMoved = picked !== '' && !same(picked, text(request, 'picker_shown', 20));
  const typedKept = same(typed, text(request, 'colour_shown', 20));
  return pickerMoved && (typedKept || typed.trim() === '') ? picked : typed;
}

/**
 * `/account/notifications` (the owner's): which steps each channel tells recipients, the sender
 * name, colour, language, "my shop already tells them", and the logo (its own multipart form).
 * Post/redirect/get; a refused form is drawn again with its errors, nothing saved.
 */
export async function notificationRoutes(
  app: FastifyInstance,
  deps: NotificationRoutesContext,
  { context }: { context: PageContextOf },
): Promise<void> {
  async function pageState(
    request: FastifyRequest,
    extra: Partial<NotificationsPageState> = {},
  ): Promise<NotificationsPageState> {
    const { user } = userOf(request).session;
    const [stored, links] = await Promise.all([
      deps.recipientSettings.get(user.brandId),
      deps.connections.list(user.brandId),
    ]);
    return {
      brandId: user.brandId,
      brandName: user.brandName,
      stored,
      form: formOf(stored),
      notifyingShops: links
        .map((l) => l.connection)
        .filter((c) => c.status !== 'disconnected' && c.notifyCustomer)
        .map((c) => ({ platform: c.platform, shop: c.shop })),
      ...extra,
    };
  }

  app.get('/notifications', SIGNED_IN, async (request, reply) => {
    mayEditRecipientSettings(userOf(request).session.user);
    const done = query(request, 'done', 20);
    const state = await pageState(request, done ? { done } : {});
    return sendPage(reply, notificationsPage(await context(request, reply), state));
  });

  app.post('/notifications', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayEditRecipientSettings(user);
    // Read inside the `try` (a field's control character is its error: form.ts), again to redraw.
    const typed = (): NotificationsForm => ({
      emailSteps: list(request, 'email_steps', 10),
      smsSteps: list(request, 'sms_steps', 10),
      senderName: text(request, 'sender_name', 200),
      colour: chosenColour(request),
      locale: text(request, 'locale', 10),
      shopNotifies: list(request, 'shop_notifies', 2).includes('1'),
    });
    try {
      await deps.recipientSettings.update(user.brandId, typed(), authorOf(request));
    } catch (err) {
      const ctx = await context(request, reply);
      const errors = fieldErrors(err, ctx, FIELDS);
      return sendPage(
        reply,
        notificationsPage(ctx, await pageState(request, { form: typed(), errors })),
        400,
      );
    }
    return reply.redirect('/account/notifications?done=saved', 303);
  });

  app.post('/notifications/logo/remove', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayEditRecipientSettings(user);
    await deps.recipientSettings.removeLogo(user.brandId, authorOf(request));
    return reply.redirect('/account/notifications?done=logo-removed', 303);
  });

  // The logo's form is multipart: parsed in this scope only (the rest of the area takes url-encoded forms).
  await app.register(async (scope) => {
    await readLogoForms(scope, (request) => mayEditRecipientSettings(userOf(request).session.user));

    scope.post('/notifications/logo', SIGNED_IN, async (request, reply) => {
      const { user } = userOf(request).session;
      mayEditRecipientSettings(user);
      const upload = logoUploadOf(request);
      try {
        // Posted url-encoded (not by the page), `logo` is text: read as the form's own field, so a
        // control character in it is said on the form like in any other.
        if (!request.isMultipart()) text(request, 'logo');
        if (upload && 'tooLarge' in upload) throw logoTooLarge();
        await deps.recipientSettings.uploadLogo(user.brandId, upload?.bytes ?? null, authorOf(request));
      } catch (err) {
        const ctx = await context(request, reply);
        const errors = fieldErrors(err, ctx, LOGO_FIELDS);
        return sendPage(
          reply,
          notificationsPage(ctx, await pageState(request, { logoError: errors.logo })),
          400,
        );
      }
      return reply.redirect('/account/notifications?done=logo', 303);
    });
  });
}
