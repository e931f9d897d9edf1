/**
 * The closed catalogue of what the audit trail records (docs/operator-guide.md, "Audit trail"):
 * an action is one of these, the object one of AUDIT_OBJECT_TYPES. A new audited change adds its
 * name here (the compiler then accepts it); the listing's `--action` filter is checked against it.
 */
export const AUDIT_ACTIONS = [
  'order.status_changed',
  // A delivery address corrected by the operator (the console's Exceptions, a flagged address).
  'order.address_corrected',
  'round.planned',
  'round.created',
  'round.stops_set',
  'round.assigned',
  // The operator's pins and moves between rounds (issue 37).
  'round.stop_pinned',
  'round.stop_moved',
  // The fleet: hubs, vehicles, couriers' shifts (domain/fleet).
  'hub.added',
  'vehicle.added',
  'vehicle.disabled',
  'shift.set',
  'scan.recorded',
  'pickup.closed',
  'grid.imported',
  'sort_codes.imported',
  'invoice.issued',
  'invoice.paid',
  'credit_note.issued',
  'webhook.endpoint_added',
  'webhook.endpoint_disabled',
  'webhook.endpoint_enabled',
  'webhook.secret_rotated',
  'webhook.replayed',
  'webhook.request_closed',
  'api_key.created',
  'api_key.rolled',
  'api_key.revoked',
  'brand.created',
  'brand.settings_changed',
  'brand.disabled',
  'test_data.deleted',
  // A bounced recipient message resent from the console's Exceptions.
  'notification.resent',
  // The console's actions on a shop link with sync problems (src/connectors/link-attention.ts).
  'connection.resynced',
  'connection.brand_notified',
  'recipient.searched',
  'recipient.read',
  'recipient.erased',
  'recipient.opted_out',
  'courier.added',
  'courier.disabled',
  'courier.password_reset',
  // The operator accounts and their machine tokens (domain/operators, through operator-audit.ts).
  'operator.added',
  'operator.disabled',
  'operator.role_changed',
  'operator.password_reset',
  'operator.password_changed',
  'operator.second_factor_reset',
  'operator.second_factor_enrolled',
  'operator.recovery_codes_renewed',
  'ops_token.created',
  'ops_token.revoked',
  // The retention dropping a month of the trail itself.
  'audit.partition_dropped',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const isAuditAction = (value: string): value is AuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(value);

export type AuditObjectType =
  | 'order'
  | 'round'
  | 'hub'
  | 'vehicle'
  | 'shift'
  | 'scan'
  | 'pickup'
  | 'grid'
  | 'invoice'
  | 'credit_note'
  | 'webhook_endpoint'
  | 'webhook_request'
  | 'sort_codes'
  | 'api_key'
  | 'brand'
  | 'notification'
  | 'connection'
  | 'recipient'
  | 'courier'
  | 'operator'
  | 'ops_token'
  | 'day'
  | 'audit_partition';
