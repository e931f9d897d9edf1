/**
 * Where an issued document stands on the e-invoicing platform (the French life cycle, XP Z12-012):
 * `pending` until the platform took it; `deposited` (200 Déposée); `received` by the buyer's
 * platform (202 Reçue, 203 Mise à disposition); `accepted` (204 Prise en charge, 205 Approuvée…) or
 * `refused` by the buyer (210 Refusée, with its reason); `rejected` by a platform (213 Rejetée: the
 * document itself was found wrong, with the reason); `paid` (212 Encaissée, once the payment data
 * is sent).
 */
export const EINVOICE_STATUSES = [
  'pending',
  'deposited',
  'received',
  'accepted',
  'refused',
  'rejected',
  'paid',
] as const;
export type EInvoiceStatus = (typeof EINVOICE_STATUSES)[number];

const NEXT: Record<EInvoiceStatus, readonly EInvoiceStatus[]> = {
  pending: ['deposited', 'rejected'],
  deposited: ['received', 'accepted', 'refused', 'rejected', 'paid'],
  received: ['accepted', 'refused', 'paid'],
  accepted: ['refused', 'paid'],
  refused: [],
  rejected: [],
  paid: [],
};

/**
 * Whether a status the platform reports moves the document on. Updates may arrive late or twice
 * (a search read again after an outage): one that would move it back is ignored.
 */
export function movesOn(from: EInvoiceStatus, to: EInvoiceStatus): boolean {
  return NEXT[from].includes(to);
}
