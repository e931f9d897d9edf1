'use strict';

/** An order as the API lists it and as webhooks carry it (see openapi.json, OrderSummary). */
const SAMPLE_ORDER = {
  tracking_ref: 'DLV-7K3M9Q2XHP',
  tracking_url: 'https://api.livraison-dlv.fr/track/q3J5vT8wZ0bXcR2mK9yL4A',
  status: 'pending',
  reference: 'CMD-10042',
  customer_email: 'camille.martin@exemple.fr',
  amount_eur: 89.9,
  pickup_address: '5 rue du Dépôt 93200 Saint-Denis',
  delivery_address: '12 rue Oberkampf 75011 Paris',
  delivery_postcode: '75011',
  delivery_city: 'Paris',
  delivery_recipient: 'Camille Martin',
  delivery_phone: '+33612345678',
  delivery_email: 'camille.martin@exemple.fr',
  service: 'standard',
  unit_type: 'parcel',
  quantity: 1,
  unit_weight_grams: 2500,
  price_eur: 10.08,
  price_excl_tax_eur: 8.4,
  vat_rate: 0.2,
  promised_date: '2026-11-25',
  created_at: '2026-11-24T09:12:31.000Z',
  updated_at: '2026-11-24T09:12:31.000Z',
};

const SAMPLE_INVOICE = {
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
  einvoice_status: 'pending',
  einvoice_status_reason: null,
  einvoice_status_at: '2026-11-01T00:05:12.000Z',
};

const SAMPLE_RATES = {
  available: true,
  reason: null,
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
  ],
  cheapest: null,
};
SAMPLE_RATES.cheapest = SAMPLE_RATES.rates[0];

module.exports = { SAMPLE_ORDER, SAMPLE_INVOICE, SAMPLE_RATES };
