import type { ActedBy, OperatorAudit } from '../operators/acting.ts';
import type { AuditAction } from './actions.ts';
import type { Author } from './actor.ts';
import type { JsonValue } from './changes.ts';
import { changedFields } from './changes.ts';

/**
 * The operators' own area (people, second factors, machine tokens) records through the trail: its
 * hook (domain/operators/acting.ts) speaks of who acted as `ActedBy`, which maps one to one onto an
 * `Author`, and of its actions in its own words, named here in the trail's catalogue.
 */
const ACTIONS = {
  'operator.created': 'operator.added',
  'operator.role_changed': 'operator.role_changed',
  'operator.disabled': 'operator.disabled',
  'operator.password_reset': 'operator.password_reset',
  'operator.second_factor_reset': 'operator.second_factor_reset',
  'operator.second_factor_enrolled': 'operator.second_factor_enrolled',
  'operator.password_changed': 'operator.password_changed',
  'operator.recovery_codes_renewed': 'operator.recovery_codes_renewed',
  'ops_token.created': 'ops_token.created',
  'ops_token.revoked': 'ops_token.revoked',
} as const satisfies Record<string, AuditAction>;

function authorOfActing(by: ActedBy): Author {
  return {
    actor: by.party,
    origin: by.address === null ? null : { clientAddress: by.address, userAgent: null, requestId: null },
  };
}

/** Writes each of the operators' changes as the trail's entry, on the change's own transaction. */
export const operatorAuditTrail: OperatorAudit = {
  async record(tx, entry) {
    await tx.audit.record({
      action: ACTIONS[entry.action],
      by: authorOfActing(entry.by),
      object: entry.subject,
      changes: changedFields(
        entry.before as Record<string, JsonValue> | null,
        entry.after as Record<string, JsonValue> | null,
      ),
    });
  },
};
