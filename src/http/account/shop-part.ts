import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Connection, Platform } from '../../connectors/connection.ts';
import type { ConnectionsService } from '../../connectors/connections-service.ts';
import type { User } from '../../domain/accounts/user.ts';
import type { SafeHtml } from '../shared/html.ts';
import type { PageContextOf } from './context.ts';
import type { CookieSigner } from './session-cookies.ts';
import type { PageContext } from './views/layout.ts';

// A leaf module: what the Shops page (shop-routes.ts, views/shops-page.ts) and each shop platform's
// part of it (src/connectors/<platform>/account/) share, so that neither imports the other.

/** What the Shops page is drawn again with: a notice above the shops, or one platform's form as typed. */
export interface ShopsPageState {
  /** What was just done (a shop connected, its settings saved). */
  notice?: string;
  /** Why a form was refused, said above the shops. */
  error?: string;
  /** The form a platform draws again (what was typed, what was wrong), read by that platform only. */
  form?: { platform: Platform; state: unknown };
}

/** The Shops page again, with a state and a status (a form's refusal). */
type ShopsView = (
  request: FastifyRequest,
  reply: FastifyReply,
  state?: ShopsPageState,
  status?: number,
) => Promise<unknown>;

/** What the Shops page gives a platform's routes. */
export interface ShopsKit {
  signer: CookieSigner;
  context: PageContextOf;
  view: ShopsView;
  connections: ConnectionsService;
  config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>;
  /** Owners and developers change shops (insufficient_scope otherwise). */
  mayManage(user: User): void;
  /** Starting a link (its shop then creates billable orders): a confirmed address too. */
  mayLink(user: User): void;
  /** Following a shop's link into the account area (install links): the same, said as linking. */
  mayFollowLink(user: User): void;
  /** A link of the brand that is not disconnected, by shop (the notices name only the brand's own). */
  liveShop(user: User, shop: string): Promise<Connection | null>;
}

/**
 * A shop platform's part of the account area (its Connector's `account`): its connect card on the
 * Shops page, what its links' cards add, and its routes (linking forms, install links…). `I` is the
 * wired connector (null when the deployment leaves the platform off), `S` its forms' state when
 * the page is drawn again, `C` what its links' cards show besides the common health.
 */
export interface AccountPart<I, S = unknown, C = unknown> {
  /** Where its connect card goes among the platforms' (the page's order, older than the registry's). */
  readonly cardOrder: number;
  /** The connect card, for the people who may change shops; `on` is whether the deployment runs it. */
  connectCard(ctx: PageContext, on: boolean, state: S | undefined): SafeHtml | '';
  /** Whether its links' cards show the poll's health notes (what the last poll met or repaired). */
  readonly polled: boolean;
  /** What its links' cards show besides the common health, by connection id. */
  cardInfo?(instance: NonNullable<I>, brandId: string): Promise<Map<string, C>>;
  /** Rows added to a link's health list. */
  healthRows?(ctx: PageContext, info: C): SafeHtml;
  /** Forms below a link's settings, for the people who may change shops. */
  linkForms?(ctx: PageContext, c: Connection, state: S | undefined): SafeHtml | '';
  /** Its routes in the account area (under /account), registered whether it is on or not. */
  routes(app: FastifyInstance, instance: I, kit: ShopsKit): void;
}

/** A platform's own form state, when the page is drawn again for it. */
export const formStateOf = <S>(state: ShopsPageState, platform: Platform): S | undefined =>
  state.form?.platform === platform ? (state.form.state as S) : undefined;
