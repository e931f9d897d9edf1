import { OPS_AUDIT_EXAMPLES } from './audit.ts';
import { OPS_INVOICE_EXAMPLES } from './einvoicing.ts';
import { LABEL_EXAMPLES } from './labels.ts';
import { OPS_OPERATOR_EXAMPLES } from './operators.ts';
import { OPS_ORDER_EXAMPLES, ORDER_EXAMPLES } from './orders.ts';
import { OTHER_EXAMPLES } from './others.ts';
import { OPS_PICKUP_EXAMPLES, PICKUP_EXAMPLES } from './pickups.ts';
import { ADDRESS_EXAMPLES } from './places.ts';
import { OPS_PROOF_EXAMPLES } from './proofs.ts';
import { OPS_ROUND_EXAMPLES } from './rounds.ts';
import { OPS_SCAN_EXAMPLES } from './scans.ts';
import type { OperationExamples } from './types.ts';
import { SUBSCRIPTION_EXAMPLES } from './webhook-subscriptions.ts';

export type { OperationExamples } from './types.ts';

/** Examples of the public API's operations, by operationId. */
export const PUBLIC_EXAMPLES: Record<string, OperationExamples> = {
  ...OTHER_EXAMPLES,
  ...ADDRESS_EXAMPLES,
  ...ORDER_EXAMPLES,
  ...LABEL_EXAMPLES,
  ...PICKUP_EXAMPLES,
  ...SUBSCRIPTION_EXAMPLES,
};
/** The operations API's: it serves its own document too (getOpenApiDocument). */
export const OPS_EXAMPLES: Record<string, OperationExamples> = {
  getOpenApiDocument: OTHER_EXAMPLES.getOpenApiDocument!,
  ...OPS_ORDER_EXAMPLES,
  ...OPS_PICKUP_EXAMPLES,
  ...OPS_SCAN_EXAMPLES,
  ...OPS_ROUND_EXAMPLES,
  ...OPS_PROOF_EXAMPLES,
  ...OPS_INVOICE_EXAMPLES,
  ...OPS_OPERATOR_EXAMPLES,
  // A brand's invoices read by the operator: what the brand itself reads.
  opsListInvoices: OTHER_EXAMPLES.listInvoices!,
  opsGetBrandInvoice: OTHER_EXAMPLES.getInvoice!,
  ...OPS_AUDIT_EXAMPLES,
};
