import { invalidField } from '../../errors.ts';
import type { Author } from '../audit/actor.ts';
import type { AuditStore } from '../audit/ports.ts';
import { normaliseEmail, parsePhone } from '../orders/order-input.ts';
import { normaliseTrackingRef } from '../orders/tracking-ref.ts';
import type { ConsoleReads, FoundOrder, SearchKind } from './ports.ts';

const LIMIT = 50;

/** What was typed: a tracking reference, an e-mail, a phone number, else a brand's own reference. */
export function classify(query: string): { kind: SearchKind; value: string } {
  const q = query.trim();
  if (q.length === 0 || q.length > 200) throw invalidField('q', 'must be 1 to 200 characters');
  const ref = normaliseTrackingRef(q);
  if (ref) return { kind: 'tracking_ref', value: ref };
  if (/^[^\s@]+@[^\s@]+$/.test(q)) return { kind: 'email', value: normaliseEmail(q)!.toLowerCase() };
  if (/^\+?[\d\s.()-]{6,20}$/.test(q)) {
    try {
      const phone = parsePhone(q, 'q');
      if (phone) return { kind: 'phone', value: phone };
    } catch {
      // Not a phone after all: a brand's reference made of digits.
    }
  }
  return { kind: 'brand_reference', value: q };
}

/**
 * The console's search. A search by a recipient's phone or e-mail reads personal data (who receives
 * what): it is recorded in the audit trail as `recipient.searched`, with the orders found and the
 * kind of search, never the phone or e-mail itself.
 */
export function orderSearch(deps: { reads: ConsoleReads; audit: Pick<AuditStore, 'record'> }) {
  return {
    async search(query: string, by: Author): Promise<{ kind: SearchKind; orders: FoundOrder[] }> {
      const { kind, value } = classify(query);
      const orders = await deps.reads.search(kind, value, LIMIT);
      if (kind === 'email' || kind === 'phone')
        await deps.audit.record({
          action: 'recipient.searched',
          by,
          object: { type: 'recipient', id: kind },
          orderRefs: orders.map((o) => o.trackingRef),
          details: { by: kind, found: orders.length },
        });
      return { kind, orders };
    },
  };
}
