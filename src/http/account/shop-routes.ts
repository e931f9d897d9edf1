import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { ConnectionsService } from '../../connectors/connections-service.ts';
import { DEFAULT_PROBLEM_LIMIT } from '../../connectors/connections-service.ts';
import { CONNECTORS, type WiredConnectors } from '../../connectors/registry.ts';
import { canLinkShops, canManageKeys, UNVERIFIED_LINK, type User } from '../../domain/accounts/user.ts';
import { AppError, invalidField } from '../../errors.ts';
import { userOf } from '../shared/principal.ts';
import { idOf, type PageContextOf, SIGNED_IN, sendPage } from './context.ts';
import { fieldErrors } from './field-errors.ts';
import { query, text } from './form.ts';
import type { CookieSigner } from './session-cookies.ts';
import type { ShopsKit, ShopsPageState } from './shop-part.ts';
import { disconnectedPage, disconnectPage, shopsPage } from './views/shops-page.ts';

const SETTINGS_FIELDS = {
  order_filter: { name: 'order_filter', label: 'shops.orderFilter' },
  notify_customer: { name: 'notify_customer', label: 'shops.notify' },
} as const;

/** What the Shops page uses: the links, each platform's wired connector (null when off) and the service's address. */
interface ShopRoutesContext extends WiredConnectors {
  connections: ConnectionsService;
  config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>;
}

/** The registry's platforms in the order of their connect cards. */
const PLATFORMS = [...CONNECTORS].sort((a, b) => a.account.cardOrder - b.account.cardOrder);

/**
 * `/account/shops` («Boutiques»): connecting a shop (each platform's part, from the registry:
 * src/connectors/<platform>/account/), the brand's links with their health, settings and
 * disconnect, and the sync problems. Everyone of the brand reads it; owners and developers (who
 * hold the API keys) change it.
 */
export function shopRoutes(
  app: FastifyInstance,
  deps: ShopRoutesContext,
  { signer, context }: { signer: CookieSigner; context: PageContextOf },
): void {
  const { connections } = deps;
  const instanceOf = (platform: (typeof PLATFORMS)[number]['platform']): unknown => deps[platform];

  function mayManage(user: User): void {
    if (!canManageKeys(user.role)) throw new AppError('insufficient_scope', 'Your role cannot change shops.');
  }

  /** Starting a link (its shop then creates billable orders): a confirmed address too. */
  function mayLink(user: User): void {
    mayManage(user);
    if (!canLinkShops(user, user.brandId)) throw new AppError('insufficient_scope', UNVERIFIED_LINK);
  }

  async function pageData(user: User) {
    const [list, problems] = await Promise.all([
      connections.list(user.brandId),
      connections.problems({ brandId: user.brandId, limit: DEFAULT_PROBLEM_LIMIT }),
    ]);
    const shops = await Promise.all(
      list.map(async (entry) => ({
        ...entry,
        // Few links per brand: the newest problem of each, however old, for its health line.
        lastProblem:
          entry.problems === 0 || entry.connection.status === 'disconnected'
            ? null
            : ((
                await connections.problems({
                  brandId: user.brandId,
                  connectionId: entry.connection.id,
                  limit: 1,
                })
              )[0] ?? null),
      })),
    );
    // What each platform's cards add (read only when the brand has links of it).
    const infos = new Map<string, unknown>();
    for (const { platform, account } of PLATFORMS) {
      const instance = instanceOf(platform);
      if (!account.cardInfo || instance == null || !shops.some((s) => s.connection.platform === platform))
        continue;
      // biome-ignore lint/suspicious/noExplicitAny: each platform's part takes its own wired connector
      for (const [id, info] of await account.cardInfo(instance as any, user.brandId)) infos.set(id, info);
    }
    return {
      shops: shops.map((s) => ({ ...s, info: infos.get(s.connection.id) })),
      problems,
      problemLimit: DEFAULT_PROBLEM_LIMIT,
      platforms: PLATFORMS.map((c) => ({
        platform: c.platform,
        part: c.account,
        on: instanceOf(c.platform) !== null,
      })),
      mayManage: canManageKeys(user.role),
      mayLink: canLinkShops(user, user.brandId),
    };
  }

  /** The Shops page again, with what a form needs to show (what was typed, what was wrong). */
  async function view(
    request: FastifyRequest,
    reply: FastifyReply,
    state: ShopsPageState = {},
    status = 200,
  ) {
    const { user } = userOf(request).session;
    const data = await pageData(user);
    return sendPage(reply, shopsPage(await context(request, reply), data, state), status);
  }

  /** A link of the brand that is not disconnected, by shop (the notices name only the brand's own). */
  const liveShop = async (user: User, shop: string) =>
    (await connections.list(user.brandId)).find(
      (l) => l.connection.shop === shop && l.connection.status !== 'disconnected',
    )?.connection ?? null;

  const kit: ShopsKit = {
    signer,
    context,
    view,
    connections,
    config: deps.config,
    mayManage,
    mayLink,
    mayFollowLink(user) {
      if (!canManageKeys(user.role))
        throw new AppError('insufficient_scope', 'Your role cannot link a shop.');
      if (!canLinkShops(user, user.brandId)) throw new AppError('insufficient_scope', UNVERIFIED_LINK);
    },
    liveShop,
  };
  // biome-ignore lint/suspicious/noExplicitAny: each platform's routes take its own wired connector
  for (const { platform, account } of PLATFORMS) account.routes(app, instanceOf(platform) as any, kit);

  app.get('/shops', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    const ctx = await context(request, reply);
    const data = await pageData(user);
    // The OAuth callback lands here with `connected`; a settings change with `saved`. Only the
    // brand's own live links are named, whatever the address says.
    const connected = query(request, 'connected', 255);
    const saved = query(request, 'saved', 40);
    const live = data.shops.map((s) => s.connection).filter((c) => c.status !== 'disconnected');
    const justConnected = connected ? live.find((c) => c.shop === connected) : undefined;
    const justSaved = saved ? live.find((c) => c.id === saved) : undefined;
    const notice = justConnected
      ? ctx.t('shops.connected', { shop: justConnected.shop })
      : justSaved
        ? ctx.t('shops.saved', { shop: justSaved.shop })
        : undefined;
    return sendPage(reply, shopsPage(ctx, data, { notice }));
  });

  app.post('/shops/:connectionId/settings', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayManage(user);
    const connection = await connections.get(user.brandId, idOf(request));
    if (connection.status === 'disconnected')
      throw new AppError(
        'invalid_request',
        'This shop is disconnected: connect it again to change its settings.',
      );
    const notify = text(request, 'notify_customer', 10);
    try {
      if (notify !== 'yes' && notify !== 'no') throw invalidField('notify_customer', 'must be yes or no');
      await connections.updateSettings(user.brandId, connection.id, {
        orderFilter: text(request, 'order_filter', 10),
        notifyCustomer: notify === 'yes',
      });
    } catch (err) {
      const ctx = await context(request, reply);
      const errors = fieldErrors(err, ctx, SETTINGS_FIELDS);
      // A tampered form only: the page shows why above the shops.
      return view(request, reply, { error: Object.values(errors).join(' ') }, 400);
    }
    return reply.redirect(`/account/shops?saved=${connection.id}`, 303);
  });

  app.get('/shops/:connectionId/disconnect', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayManage(user);
    const connection = await connections.get(user.brandId, idOf(request));
    if (connection.status === 'disconnected') return reply.redirect('/account/shops', 303);
    return sendPage(reply, disconnectPage(await context(request, reply), connection));
  });

  app.post('/shops/:connectionId/disconnect', SIGNED_IN, async (request, reply) => {
    const { user } = userOf(request).session;
    mayManage(user);
    const done = await connections.disconnect(user.brandId, idOf(request), `disconnected by ${user.email}`);
    return sendPage(reply, disconnectedPage(await context(request, reply), done, done.remote));
  });
}
