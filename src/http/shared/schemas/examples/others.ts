import { errorExample, type OperationExamples } from './types.ts';

const DRAFT = {
  id: 'inv_3f9a0c1d2e3f4a5b',
  number: null,
  period: '2026-11',
  status: 'draft',
  currency: 'EUR',
  order_count: 2,
  total_excl_tax_eur: 20.9,
  vat_eur: 4.18,
  total_eur: 25.08,
  issued_at: null,
  due_date: null,
  paid_at: null,
  type: 'invoice',
  credits_invoice: null,
  einvoice_status: null,
  einvoice_status_reason: null,
  einvoice_status_at: null,
};
const ISSUED = {
  id: 'inv_7c2e9b4d1a6f3e80',
  number: 'F2026-000042',
  period: '2026-10',
  status: 'issued',
  currency: 'EUR',
  order_count: 1,
  total_excl_tax_eur: 8.4,
  vat_eur: 1.68,
  total_eur: 10.08,
  issued_at: '2026-11-01T00:05:12.000Z',
  due_date: '2026-12-01',
  paid_at: null,
  type: 'invoice',
  credits_invoice: null,
  einvoice_status: 'accepted',
  einvoice_status_reason: '205 Approuvée',
  einvoice_status_at: '2026-11-03T08:41:00.000Z',
};

export const ISSUED_INVOICE_EXAMPLE = ISSUED;

const NO_INVOICE = {
  unknown: {
    summary: 'No such invoice for this brand',
    value: errorExample('not_found', 'No invoice with id "inv_3f9a0c1d2e3f4a5b".'),
  },
};

export const OTHER_EXAMPLES: Record<string, OperationExamples> = {
  ping: {
    responses: {
      200: { up: { summary: 'The API answers', value: { ok: true, time: '2026-11-24T09:12:31.000Z' } } },
    },
  },
  getOpenApiDocument: {
    responses: {
      200: {
        document: {
          summary: 'This document (abridged)',
          value: { openapi: '3.1.0', info: { title: 'Delivery Orders API', version: '1.0.0' }, paths: {} },
        },
      },
    },
  },
  getMe: {
    responses: {
      200: {
        me: {
          summary: 'A key that can read and create orders',
          value: {
            ok: true,
            brand: {
              id: 'brd_9a8b7c6d5e4f3a2b',
              name: 'Maison Lemoine',
              created_at: '2026-09-01T10:00:00.000Z',
            },
            key: {
              id: 'key_0c1d2e3f4a5b6c7d',
              prefix: 'dlv_3f9a0c1d',
              scopes: ['orders:read', 'orders:write'],
              created_at: '2026-09-01T10:00:00.000Z',
              last_used_at: '2026-11-24T09:12:31.000Z',
            },
          },
        },
      },
    },
  },
  quoteRates: {
    request: {
      byAddress: {
        summary: 'Two parcels of 2.5 kg to an address',
        value: {
          delivery_address: '12 rue Oberkampf 75011 Paris',
          unit_type: 'colis',
          unit_weight: '2,5 kg',
          quantity: 2,
        },
      },
      byPostcode: { summary: 'One parcel of 1 kg to a postcode', value: { delivery_zip: '92100' } },
    },
    responses: {
      200: {
        available: {
          summary: 'Services available, cheapest first',
          value: {
            ok: true,
            available: true,
            rates: [
              {
                service: 'economy',
                name: 'Economy — 3 business days',
                price_eur: 8.64,
                price_excl_tax_eur: 7.2,
                vat_rate: 0.2,
                currency: 'EUR',
                delay_business_days: 3,
                promised_date: '2026-11-27',
              },
              {
                service: 'standard',
                name: 'Standard — next business day',
                price_eur: 10.08,
                price_excl_tax_eur: 8.4,
                vat_rate: 0.2,
                currency: 'EUR',
                delay_business_days: 1,
                promised_date: '2026-11-25',
              },
            ],
          },
        },
        outOfZone: {
          summary: 'Destination outside Île-de-France (e.g. 69002 Lyon)',
          value: { ok: true, available: false, rates: [], reason: 'out_of_zone' },
        },
        unknownPostcode: {
          summary: 'A postcode that does not exist (e.g. 75099), or none in the address',
          value: { ok: true, available: false, rates: [], reason: 'unknown_postcode' },
        },
        incompleteGrid: {
          summary: "The brand's grid has no price for a service it offers at this weight",
          value: { ok: true, available: false, rates: [], reason: 'incomplete_grid' },
        },
      },
      400: {
        noDestination: {
          summary: 'Neither delivery_zip nor delivery_address',
          value: errorExample(
            'invalid_request',
            'delivery_zip: give delivery_zip or delivery_address (a destination is required)',
            [
              {
                field: 'delivery_zip',
                message: 'give delivery_zip or delivery_address (a destination is required)',
              },
            ],
          ),
        },
      },
    },
  },
  listInvoices: {
    responses: {
      200: {
        page: {
          summary: 'The running draft and an issued invoice',
          value: { ok: true, invoices: [DRAFT, ISSUED], next_cursor: null },
        },
      },
    },
  },
  getInvoice: {
    responses: {
      200: {
        issued: {
          summary: 'An issued invoice with its line',
          value: {
            ok: true,
            invoice: {
              ...ISSUED,
              co2e_grams: 476,
              lines: [
                {
                  tracking_ref: 'DLV-7K3M9Q2XHP',
                  service: 'standard',
                  created_at: '2026-10-14T09:12:31.000Z',
                  price_excl_tax_eur: 8.4,
                  vat_eur: 1.68,
                  price_eur: 10.08,
                  co2e_grams: 476,
                },
              ],
            },
          },
        },
      },
      404: NO_INVOICE,
    },
  },
  getInvoicePdf: { responses: { 404: NO_INVOICE } },
  getEmissionStatement: {
    responses: {
      200: {
        month: {
          summary: "A month's statement",
          value: {
            ok: true,
            emissions: {
              period: '2026-11',
              totals: { orders: 3, parcels: 4, distance_km: 25.2, co2e_kg: 7.989 },
              by_vehicle: [
                { vehicle: 'van', data_level: 1, orders: 1, parcels: 1, distance_km: 1.5, co2e_kg: 0.476 },
                { vehicle: 'van', data_level: 3, orders: 2, parcels: 3, distance_km: 23.7, co2e_kg: 7.513 },
              ],
              data_levels: [1, 3],
              method: 'info-ges-2017-parcel-v2',
              method_text:
                'Information GES des prestations de transport (Code des transports, art. L1431-3 et D1431-1 à D1431-23) : …',
            },
          },
        },
      },
    },
  },
};
