import { describe, expect, it } from 'vitest';
import { mapPrestaShopOrder, type PushedOrder, prestashopUnits } from './order-mapping.ts';
import { toPrestaShopXml } from './webservice-client.ts';

const order = (over: Partial<PushedOrder> = {}): PushedOrder => ({
  id: 42,
  reference: 'XKBKNABJK',
  carrier_service: 'express',
  total_paid_tax_incl: '59.90',
  currency: 'EUR',
  customer: { email: 'claire@example.fr', firstname: 'Claire', lastname: 'Martin' },
  delivery_address: {
    company: 'Atelier Figuier',
    firstname: 'Claire',
    lastname: 'Martin',
    address1: '12 rue Oberkampf',
    address2: '',
    postcode: '75011',
    city: 'Paris',
    country_iso: 'FR',
    phone: '01 43 55 00 00',
    phone_mobile: '',
  },
  products: [
    { quantity: 2, weight_kg: '0.450' },
    { quantity: 1, weight_kg: '0.000' },
  ],
  ...over,
});

describe('mapPrestaShopOrder', () => {
  it('maps the contract’s order to ours', () => {
    expect(mapPrestaShopOrder(order(), 'ours')).toEqual({
      kind: 'order',
      ref: { externalId: '42', name: 'XKBKNABJK' },
      input: {
        customer_email: 'claire@example.fr',
        amount_eur: 59.9,
        delivery_address: '12 rue Oberkampf 75011 Paris',
        delivery_recipient: 'Claire Martin, Atelier Figuier',
        delivery_phone: '01 43 55 00 00',
        delivery_email: 'claire@example.fr',
        service: 'express',
        unit_type: 'parcel',
        quantity: 1,
        unit_weight: '900g',
        reference: 'XKBKNABJK',
      },
    });
  });

  it('skips other carriers unless the brand takes every order, and names what it cannot take', () => {
    expect(mapPrestaShopOrder(order({ carrier_service: null }), 'ours')).toMatchObject({ kind: 'skip' });
    expect(mapPrestaShopOrder(order({ carrier_service: null }), 'all')).toMatchObject({
      kind: 'order',
      input: { service: 'standard' },
    });
    expect(mapPrestaShopOrder(order({ carrier_service: 'drone' }), 'ours')).toMatchObject({
      problem: 'invalid_order',
    });
    const belgium = order({ delivery_address: { ...order().delivery_address, country_iso: 'BE' } });
    expect(mapPrestaShopOrder(belgium, 'ours')).toMatchObject({ problem: 'out_of_zone' });
    expect(mapPrestaShopOrder(order({ delivery_address: null }), 'ours')).toMatchObject({
      problem: 'invalid_address',
    });
    expect(mapPrestaShopOrder(order({ customer: { email: 'nope' } }), 'ours')).toMatchObject({
      problem: 'invalid_order',
    });
    expect(mapPrestaShopOrder(order({ currency: 'CHF' }), 'ours')).toMatchObject({
      input: { amount_eur: null },
    });
    expect(mapPrestaShopOrder(order({ id: 0 }), 'ours')).toBeNull();
    expect(mapPrestaShopOrder(order({ id: '12abc' }), 'ours')).toBeNull();
  });

  it('weighs one parcel, our default when nothing has a weight', () => {
    expect(prestashopUnits([{ quantity: 3, weight_kg: '0.0004' }])).toEqual({
      unit_type: 'parcel',
      quantity: 1,
      unit_weight: '3g',
    });
    expect(prestashopUnits([{ quantity: 2, weight_kg: null }])).toEqual({ unit_type: 'parcel', quantity: 1 });
  });
});

describe('toPrestaShopXml', () => {
  it('writes every field in CDATA, a CDATA end inside a value included, and leaves nested values out', () => {
    const xml = toPrestaShopXml('order_carrier', {
      id: 5,
      tracking_number: 'a]]>b',
      associations: { x: 1 },
      'bad name': 'x',
    });
    expect(xml).toContain(
      '<order_carrier><id><![CDATA[5]]></id><tracking_number><![CDATA[a]]]]><![CDATA[>b]]></tracking_number></order_carrier>',
    );
    expect(xml).not.toContain('associations');
  });
});
