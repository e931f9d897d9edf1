import type { Stores } from '../shared/stores.ts';
import type { OperatorRole, OpsScope } from './scopes.ts';

/**
 * Who makes a change to the operators or the machine tokens, in the audit trail's terms (issue 38's
 * `Actor`: a person, a token, the bootstrap OPS_TOKEN, or `dlv` on a host). The operations API
 * derives it from the request's operator principal, the CLI from its host.
 */
type ActingParty =
  | { kind: 'operator'; operatorId: string; email: string; role: OperatorRole }
  | { kind: 'token'; tokenId: string; name: string }
  | { kind: 'bootstrap' }
  | { kind: 'cli'; label: string };

/** Who, and from which client address (null: the command line). */
export interface ActedBy {
  party: ActingParty;
  address: string | null;
}

/** What is audited of the operators' own area (the audit trail gives each its row). */
type OperatorAuditAction =
  | 'operator.created'
  | 'operator.role_changed'
  | 'operator.disabled'
  | 'operator.password_reset'
  | 'operator.second_factor_reset'
  | 'operator.second_factor_enrolled'
  | 'operator.password_changed'
  | 'operator.recovery_codes_renewed'
  | 'ops_token.created'
  | 'ops_token.revoked';

interface OperatorAuditEntry {
  action: OperatorAuditAction;
  by: ActedBy;
  subject: { type: 'operator' | 'ops_token'; id: string };
  /** The fields that changed, before and after (never a secret: no hash, code or token). */
  before: Record<string, string | boolean | null | readonly OpsScope[]> | null;
  after: Record<string, string | boolean | null | readonly OpsScope[]> | null;
}

/**
 * The hook the audit trail writes its rows through: called inside the change's own transaction
 * (`tx`), so the row exists exactly when the change does, and a failed change writes none.
 */
export interface OperatorAudit {
  record(tx: Stores, entry: OperatorAuditEntry): Promise<void>;
}
