import type { ConsoleReads, SearchKind } from '../../domain/console/ports.ts';
import type { Queryable } from '../pool.ts';

const SEARCH_WHERE: Record<SearchKind, string> = {
  tracking_ref: 'o.tracking_ref = $1',
  email: '(lower(o.delivery_email) = $1 OR lower(o.customer_email) = $1)',
  phone: 'o.delivery_phone = $1',
  brand_reference: 'o.reference = $1',
};

/** The console's read models (domain/console/ports.ts). */
export function consoleReadsRepository(db: Queryable): ConsoleReads {
  return {
    async exceptions(today, limit) {
      const [failed, missing, flagged, bounced, webhooks, links] = await Promise.all([
        db.query(
          `SELECT o.tracking_ref, b.name AS brand_name, o.updated_at,
                  (SELECT reason FROM delivery_attempts a WHERE a.order_id = o.id ORDER BY happened_at DESC LIMIT 1) AS reason
             FROM orders o JOIN brands b ON b.id = o.brand_id
            WHERE o.status = 'failed_attempt'
            ORDER BY o.updated_at DESC LIMIT $1`,
          [limit],
        ),
        db.query(
          // Only the parcels still missing: one found since (collected) or cancelled is resolved.
          `SELECT * FROM (
             SELECT p.id, b.name AS brand_name, p.pickup_date::text AS date,
                    ARRAY(SELECT o.tracking_ref FROM orders o
                           WHERE o.tracking_ref = ANY (p.missing_refs) AND o.status = 'pending'
                           ORDER BY o.tracking_ref)::text[] AS missing_refs
               FROM pickups p JOIN brands b ON b.id = p.brand_id
              WHERE cardinality(p.missing_refs) > 0 AND p.pickup_date >= $1::date - 7) m
            WHERE cardinality(m.missing_refs) > 0
            ORDER BY m.date DESC, m.id LIMIT $2`,
          [today, limit],
        ),
        db.query(
          `SELECT o.tracking_ref, b.name AS brand_name,
                  ARRAY(SELECT coalesce(w->>'code', w::text) FROM jsonb_array_elements(o.address_warnings) w) AS warnings
             FROM orders o JOIN brands b ON b.id = o.brand_id
            WHERE o.address_warnings <> '[]'::jsonb
              AND o.status NOT IN ('delivered', 'returned', 'cancelled')
            ORDER BY o.updated_at DESC LIMIT $1`,
          [limit],
        ),
        db.query(
          `SELECT n.id, o.tracking_ref, n.channel, n.step, n.detail, n.updated_at
             FROM recipient_notifications n JOIN orders o ON o.id = n.order_id
            WHERE n.status = 'failed' AND n.created_at >= $1::date - 7
            ORDER BY n.updated_at DESC LIMIT $2`,
          [today, limit],
        ),
        db.query(
          `SELECT e.id, e.brand_id, b.name AS brand_name, e.url, e.status, e.first_failure_at, e.disabled_reason
             FROM webhook_endpoints e JOIN brands b ON b.id = e.brand_id
            WHERE e.first_failure_at IS NOT NULL OR (e.status = 'disabled' AND e.disabled_reason IS NOT NULL)
            ORDER BY e.first_failure_at DESC NULLS LAST LIMIT $1`,
          [limit],
        ),
        db.query(
          `SELECT c.id, c.brand_id, b.name AS brand_name, c.platform, c.shop, c.status,
                  coalesce(c.sync_error, c.status_reason) AS reason, c.updated_at,
                  (SELECT count(*)::int FROM connector_problems p WHERE p.connection_id = c.id) AS problems
             FROM connector_connections c JOIN brands b ON b.id = c.brand_id
            WHERE (c.status = 'active' AND c.sync_error IS NOT NULL)
               OR c.status = 'broken'
               OR (c.status = 'disconnected' AND c.disconnected_at >= $1::date - 7
                   AND coalesce(c.status_reason, '') NOT LIKE 'disconnected by %'
                   AND NOT EXISTS (SELECT 1 FROM connector_connections again
                                    WHERE again.shop = c.shop AND again.platform = c.platform
                                      AND again.status = 'active'))
            ORDER BY c.updated_at DESC LIMIT $2`,
          [today, limit],
        ),
      ]);
      return {
        failedAttempts: failed.rows.map((r) => ({
          trackingRef: r.tracking_ref,
          brandName: r.brand_name,
          reason: r.reason,
          since: r.updated_at,
        })),
        missingParcels: missing.rows.map((r) => ({
          pickupId: r.id,
          brandName: r.brand_name,
          date: r.date,
          missingRefs: r.missing_refs,
        })),
        flaggedAddresses: flagged.rows.map((r) => ({
          trackingRef: r.tracking_ref,
          brandName: r.brand_name,
          warnings: r.warnings,
        })),
        bouncedNotifications: bounced.rows.map((r) => ({
          notificationId: r.id,
          trackingRef: r.tracking_ref,
          channel: r.channel,
          step: r.step,
          detail: r.detail,
          at: r.updated_at,
        })),
        failingWebhooks: webhooks.rows.map((r) => ({
          endpointId: r.id,
          brandId: r.brand_id,
          brandName: r.brand_name,
          url: r.url,
          status: r.status,
          since: r.first_failure_at,
          reason: r.disabled_reason,
        })),
        shopLinks: links.rows.map((r) => ({
          connectionId: r.id,
          brandId: r.brand_id,
          brandName: r.brand_name,
          platform: r.platform,
          shop: r.shop,
          status: r.status,
          reason: r.reason,
          problems: r.problems,
          since: r.updated_at,
        })),
      };
    },

    async search(kind, value, limit) {
      const { rows } = await db.query(
        `SELECT o.tracking_ref, b.name AS brand_name, o.reference, o.status, o.created_at
           FROM orders o JOIN brands b ON b.id = o.brand_id
          WHERE ${SEARCH_WHERE[kind]}
          ORDER BY o.created_at DESC LIMIT $2`,
        [value, limit],
      );
      return rows.map((r) => ({
        trackingRef: r.tracking_ref,
        brandName: r.brand_name,
        reference: r.reference,
        status: r.status,
        createdAt: r.created_at,
      }));
    },

    async monthInvoices(period) {
      const { rows } = await db.query(
        `SELECT * FROM (
         SELECT i.id, i.brand_id, b.name AS brand_name, i.number, 'invoice' AS type, i.status,
                (SELECT coalesce(sum(l.price_cents), 0) FROM invoice_lines l WHERE l.invoice_id = i.id) AS total_cents,
                i.issued_at, NULL AS credits
           FROM invoices i JOIN brands b ON b.id = i.brand_id
          WHERE i.period = $1
         UNION ALL
         SELECT c.id, c.brand_id, b.name, c.number, 'credit_note', 'issued',
                (SELECT coalesce(sum(l.price_cents), 0) FROM credit_note_lines l WHERE l.credit_note_id = c.id),
                c.issued_at, i.number
           FROM credit_notes c JOIN brands b ON b.id = c.brand_id JOIN invoices i ON i.id = c.credits_invoice_id
          -- Listed with the month it corrects (its invoice's), as the invoices API lists it.
          WHERE i.period = $1) month
         -- Per brand, each invoice followed by its credit notes.
         ORDER BY brand_name, coalesce(credits, number), type DESC, number`,
        [period],
      );
      return rows.map((r) => ({
        id: r.id,
        brandId: r.brand_id,
        brandName: r.brand_name,
        number: r.number,
        type: r.type,
        status: r.status,
        totalCents: Number(r.total_cents),
        issuedAt: r.issued_at,
        credits: r.credits,
      }));
    },
  };
}
