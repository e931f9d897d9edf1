import { invoiceJson } from '../domain/invoices/invoice-json.ts';
import type { Order } from '../domain/orders/order.ts';
import { NO_CO2E } from '../domain/orders/order-fields.ts';
import { type OrderLinks, orderJson } from '../domain/orders/order-json.ts';
import { addressWarning } from '../domain/places/warnings.ts';
import type { EventPayloads, EventType } from './catalogue.ts';

/**
 * A sample `data` of every event type, for `GET /event-types` (automation tools show it while a
 * workflow is built). Rendered by the same functions as the real payloads, from sample domain
 * objects, so a sample cannot drift from what is sent; a test validates each against the OpenAPI
 * document's webhook schemas.
 */
const AT = new Date('2026-11-24T09:12:00.000Z');

const ORDER: Order = {
  id: 1,
  ...NO_CO2E,
  trackingRef: 'DLV-7K3M9Q2XHP',
  trackingToken: 'q3J5vT8wZ0bXcR2mK9yL4A',
  brandId: 'brd_3f9a0c1d2e3f4a5b',
  status: 'pending',
  livemode: true,
  reference: 'CMD-10042',
  customerEmail: 'jane@example.com',
  amountCents: 4990,
  pickupAddress: '5 rue du Dépôt 93200 Saint-Denis',
  deliveryAddress: '12 rue Oberkampf 75011 Paris',
  deliveryPostcode: '75011',
  deliveryCity: 'Paris',
  deliveryZone: 'paris',
  deliveryRecipient: 'Jane Doe',
  deliveryPhone: '+33612345678',
  deliveryEmail: 'jane@example.com',
  // At its postcode (no geocoder configured): the offline default's point for 75011.
  deliveryLat: 48.8574,
  deliveryLng: 2.3795,
  deliveryLocationPrecision: 'postcode',
  deliveryLocationSource: 'postcode',
  addressWarnings: [],
  addressCheckDueAt: null,
  service: 'express',
  unitType: 'parcel',
  quantity: 1,
  unitWeightGrams: 1000,
  priceExclTaxCents: 800,
  vatCents: 160,
  priceCents: 960,
  promisedDate: '2026-11-24',
  pickupId: 'pck_5b1e0c9d3a7f2e64',
  pickedUpAt: null,
  createdAt: AT,
  updatedAt: AT,
};

const LATER = new Date('2026-11-24T15:40:00.000Z');
const on = (links: OrderLinks, change: Partial<Order>) =>
  orderJson(
    { ...ORDER, pickedUpAt: new Date('2026-11-24T10:05:00.000Z'), updatedAt: LATER, ...change },
    links,
  );

const INVOICE = {
  id: 'inv_7c2e9b4d1a6f3e80',
  number: 'F2026-000042',
  period: '2026-10',
  status: 'issued' as const,
  orderCount: 1,
  totalExclTaxCents: 840,
  vatCents: 168,
  totalCents: 1008,
  issuedAt: new Date('2026-11-01T00:05:12.000Z'),
  dueDate: '2026-12-01',
  paidAt: null,
  einvoice: { status: 'pending' as const, reason: null, at: new Date('2026-11-01T00:05:12.000Z') },
};

export function eventSamples(links: OrderLinks): { [T in EventType]: EventPayloads[T] } {
  return {
    'order.created': { order: orderJson(ORDER, links) },
    'order.status_changed': { order: on(links, { status: 'in_transit' }), previous_status: 'picked_up' },
    'order.delivered': { order: on(links, { status: 'delivered' }) },
    'order.delivery_failed': { order: on(links, { status: 'failed_attempt' }) },
    'order.labelled': { order: orderJson(ORDER, links), labelled_at: '2026-11-24T09:30:00.000Z' },
    'order.rescheduled': {
      order: on(links, { status: 'failed_attempt', promisedDate: '2026-11-27' }),
      previous_promised_date: '2026-11-24',
      changed_by: 'recipient',
    },
    'order.address_flagged': {
      order: orderJson(
        {
          ...ORDER,
          deliveryAddress: '12 rue Oberkampf 75012 Paris',
          deliveryPostcode: '75012',
          addressWarnings: [
            addressWarning.postcodeMismatch('75012', '75011', '12 Rue Oberkampf 75011 Paris'),
          ],
        },
        links,
      ),
    },
    'order.eta_changed': {
      order: on(links, { status: 'out_for_delivery' }),
      arrival: {
        eta: '2026-11-24T11:05:00.000Z',
        window_start: '2026-11-24T10:30:00.000Z',
        window_end: '2026-11-24T12:30:00.000Z',
        stops_before: 7,
      },
      previous_window: { start: '2026-11-24T09:45:00.000Z', end: '2026-11-24T11:45:00.000Z' },
    },
    'invoice.issued': { invoice: invoiceJson(INVOICE) },
    'credit_note.issued': {
      credit_note: invoiceJson({
        ...INVOICE,
        id: 'inv_0b1c2d3e4f5a6b7c',
        number: 'A2026-000007',
        totalExclTaxCents: -840,
        vatCents: -168,
        totalCents: -1008,
        issuedAt: new Date('2026-11-20T14:02:00.000Z'),
        dueDate: null,
        creditsInvoice: { id: INVOICE.id, number: INVOICE.number },
      }),
    },
    'invoice.status_changed': {
      invoice: invoiceJson({
        ...INVOICE,
        einvoice: {
          status: 'refused',
          reason: 'Refusée : le bon de commande BC-2026-118 manque (MOTIF: REF_CT_ABSENT)',
          at: new Date('2026-11-03T08:41:00.000Z'),
        },
      }),
      previous_einvoice_status: 'received',
    },
    'pickup.completed': {
      pickup: {
        id: 'pck_5b1e0c9d3a7f2e64',
        date: '2026-11-24',
        pickup_address: ORDER.pickupAddress!,
        status: 'partially_collected',
        collected: ['DLV-7K3M9Q2XHP', 'DLV-4T8N2W6RJC', 'DLV-9F3H7K2MXQ'],
        missing: ['DLV-2P6R8T4VBN', 'DLV-6X2C9M4KDW'],
      },
    },
  };
}
