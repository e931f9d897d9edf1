/**
 * Who acts (issue 38, SPEC §12): every audited change and every operator's read of a recipient's
 * data names one of these. The surfaces map their principals onto it (http/shared/author.ts,
 * cli/author.ts); the services take it as a parameter and never know the surface.
 */

/** An operator's role (SPEC §12): the operator accounts' own list is to match. */
type OperatorRole = 'admin' | 'dispatcher' | 'finance' | 'support';

export type Actor =
  /** A named operator signed in (their own account, roles of SPEC §12). */
  | { kind: 'operator'; operatorId: string; email: string; role: OperatorRole }
  /** A named, scoped machine token of the operator. */
  | { kind: 'token'; tokenId: string; name: string }
  /** The deployment's shared OPS_TOKEN, a bootstrap credential: it names nobody. */
  | { kind: 'bootstrap' }
  /** `dlv` on a machine: `user@host`, the OS user and the host name. */
  | { kind: 'cli'; label: string }
  /** A signed-in courier (the courier app, `/courier`). */
  | { kind: 'courier'; courierId: string }
  /** A brand's person signed in to the account area. */
  | { kind: 'user'; userId: string; brandId: string }
  /** A brand's API key (the public API). */
  | { kind: 'api_key'; keyId: string; brandId: string }
  /** A scheduled job of the worker. */
  | { kind: 'system'; job: string };

export const ACTOR_KINDS = [
  'operator',
  'token',
  'bootstrap',
  'cli',
  'courier',
  'user',
  'api_key',
  'system',
] as const satisfies readonly Actor['kind'][];
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** Where a request came from (the CLI and the jobs have none). */
export interface RequestOrigin {
  clientAddress: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** Who acts and from where: what an audited service call is given by its surface. */
export interface Author {
  actor: Actor;
  origin: RequestOrigin | null;
}

/** A scheduled job's author: `job` is the job's name (`invoices_issue_due`). */
export const systemAuthor = (job: string): Author => ({ actor: { kind: 'system', job }, origin: null });

/** The label the bootstrap token is listed under. */
const BOOTSTRAP_LABEL = 'OPS_TOKEN';

/**
 * How the trail stores and filters an actor: its kind, its id (null for the bootstrap token, the
 * user@host of the CLI, the job's name) and the label a person reads.
 */
export function actorColumns(actor: Actor): { kind: ActorKind; id: string | null; label: string } {
  switch (actor.kind) {
    case 'operator':
      return { kind: actor.kind, id: actor.operatorId, label: actor.email };
    case 'token':
      return { kind: actor.kind, id: actor.tokenId, label: actor.name };
    case 'bootstrap':
      return { kind: actor.kind, id: null, label: BOOTSTRAP_LABEL };
    case 'cli':
      return { kind: actor.kind, id: actor.label, label: actor.label };
    case 'courier':
      return { kind: actor.kind, id: actor.courierId, label: actor.courierId };
    case 'user':
      return { kind: actor.kind, id: actor.userId, label: actor.userId };
    case 'api_key':
      return { kind: actor.kind, id: actor.keyId, label: actor.keyId };
    case 'system':
      return { kind: actor.kind, id: actor.job, label: actor.job };
  }
}
