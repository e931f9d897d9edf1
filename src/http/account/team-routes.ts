import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TeamManagement } from '../../domain/accounts/team.ts';
import {
  ADDRESS_INVITED_TOO_OFTEN,
  LAST_OWNER,
  NOT_YOURSELF,
  TOO_MANY_INVITATIONS,
} from '../../domain/accounts/team.ts';
import { isAppError } from '../../errors.ts';
import { userOf } from '../shared/principal.ts';
import { formError } from './auth-routes.ts';
import type { PageContextOf } from './context.ts';
import { clientIp, query, text } from './form.ts';
import { removeMemberPage, teamPage } from './views/team-pages.ts';
import type { MessageKey } from './words.ts';

const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };

const sendPage = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);

const userIdOf = (request: FastifyRequest) => (request.params as { userId: string }).userId;

const DONE: Record<string, MessageKey> = {
  invited: 'team.invited',
  role: 'team.changed',
  removed: 'team.removed',
  cancelled: 'team.cancelled',
};
const REFUSALS: Record<string, MessageKey> = {
  [LAST_OWNER]: 'team.lastOwner',
  [NOT_YOURSELF]: 'team.notYourself',
};
const THROTTLED: Record<string, MessageKey> = {
  [TOO_MANY_INVITATIONS]: 'team.tooManyInvitations',
  [ADDRESS_INVITED_TOO_OFTEN]: 'team.addressInvitedTooOften',
};

/** What the team pages use. */
interface TeamRoutesContext {
  team: TeamManagement;
}

/** The team page (owners only): the brand's people, pending invitations, roles, removal. */
export function teamRoutes(
  app: FastifyInstance,
  deps: TeamRoutesContext,
  { context }: { context: PageContextOf },
): void {
  const { team } = deps;

  async function view(request: FastifyRequest, reply: FastifyReply, state = {}, status = 200) {
    const { session } = userOf(request);
    const [members, invitations] = await Promise.all([
      team.list(session.user),
      team.invitations(session.user),
    ]);
    const page = teamPage(await context(request, reply), { members, invitations }, state);
    return sendPage(reply, page, status);
  }

  /** A refused change (last owner, oneself) is shown on the team page; other errors go to the error page. */
  async function refused(err: unknown, request: FastifyRequest, reply: FastifyReply) {
    const key = isAppError(err) && err.code === 'invalid_transition' ? REFUSALS[err.message] : undefined;
    if (!key) throw err;
    return view(request, reply, { error: (await context(request, reply)).t(key) }, 409);
  }

  app.get('/team', SIGNED_IN, async (request, reply) => {
    const done = DONE[query(request, 'done', 20)];
    return view(request, reply, done ? { notice: (await context(request, reply)).t(done) } : {});
  });

  app.post('/team/invite', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    // Read inside the `try` (a field's control character is its error: form.ts), again to redraw the form.
    const typed = () => ({ email: text(request, 'email', 254), role: text(request, 'role', 20) });
    try {
      await team.invite(session.user, { ...typed(), locale: request.locale, ip: clientIp(request) });
      return reply.redirect('/account/team?done=invited', 303);
    } catch (err) {
      const ctx = await context(request, reply);
      const throttled = isAppError(err) && err.code === 'rate_limited' ? THROTTLED[err.message] : undefined;
      if (throttled) return view(request, reply, { ...typed(), error: ctx.t(throttled) }, 429);
      const error =
        // Only ever someone of the owner's own brand (see inviteMember).
        isAppError(err) && err.details?.[0]?.problem?.code === 'email.taken'
          ? ctx.t('team.taken')
          : formError(err, ctx, { email: 'field.email', role: 'team.role' });
      return view(request, reply, { ...typed(), error }, 400);
    }
  });

  // The same answer whatever the invitation's address (see inviteMember); another brand's is the 404 page.
  app.post('/team/invitations/:invitationId/cancel', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    await team.cancelInvitation(session.user, (request.params as { invitationId: string }).invitationId);
    return reply.redirect('/account/team?done=cancelled', 303);
  });

  app.post('/team/:userId/role', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    try {
      await team.changeRole(session.user, userIdOf(request), text(request, 'role', 20));
    } catch (err) {
      return refused(err, request, reply);
    }
    return reply.redirect('/account/team?done=role', 303);
  });

  app.get('/team/:userId/remove', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    const member = await team.find(session.user, userIdOf(request));
    return sendPage(reply, removeMemberPage(await context(request, reply), member));
  });

  app.post('/team/:userId/remove', SIGNED_IN, async (request, reply) => {
    const { session } = userOf(request);
    try {
      await team.remove(session.user, userIdOf(request));
    } catch (err) {
      return refused(err, request, reply);
    }
    return reply.redirect('/account/team?done=removed', 303);
  });
}
