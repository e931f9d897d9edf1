import { describe, expect, it } from 'vitest';
import { mapWooOrder, wooLoad } from './order-mapping.ts';

const order = (over: Record<string, unknown> = {}) => ({
  id: 727,
  number: '727',
  status: 'processing',
  currency: 'EUR',
  total: '62.20',
  billing: { email: 'claire.martin@example.fr', phone: '06 12 34 56 78' },
  shipping: {
    first_name: 'Claire',
    last_name: 'Martin',
    company: '',
    address_1: '12 rue Oberkampf',
    address_2: 'Bâtiment B',
    postcode: '75011',
    city: 'Paris',
    country: 'FR',
    phone: '',
  },
  shipping_lines: [{ method_id: 'dlv', meta_data: [{ id: 1, key: 'dlv_service', value: 'economy' }] }],
  ...over,
});

describe('mapWooOrder', () => {
  it('maps a paid order shipped with our method', () => {
    const mapped = mapWooOrder(order(), 'ours');
    expect(mapped).toEqual({
      kind: 'order',
      ref: { id: '727', number: '727', name: '#727' },
      input: {
        customer_email: 'claire.martin@example.fr',
        amount_eur: 62.2,
        delivery_address: '12 rue Oberkampf, Bâtiment B 75011 Paris',
        delivery_recipient: 'Claire Martin',
        delivery_phone: '06 12 34 56 78',
        delivery_email: 'claire.martin@example.fr',
        service: 'economy',
        // The order number as the shop shows it, without WooCommerce's "#" (README).
        reference: '727',
      },
    });
  });

  it('takes the reference from `number` (a sequential-numbers plugin may change it), never the id', () => {
    expect(mapWooOrder(order({ number: 'WC-2001' }), 'ours')).toMatchObject({
      ref: { id: '727' },
      input: { reference: 'WC-2001' },
    });
    expect(mapWooOrder(order({ number: null }), 'ours')).toMatchObject({ input: { reference: '727' } });
  });

  it('counts only our method by its id: a shop method named or configured like ours never does', () => {
    const lookalikes = [
      {
        method_id: 'flat_rate',
        method_title: 'Livraison DLV — Express',
        meta_data: [{ key: 'dlv_service', value: 'express' }],
      },
      { method_id: 'free_shipping', method_title: 'Standard', meta_data: [] },
      { method_id: 'local_pickup', method_title: 'Livraison', meta_data: [] },
      { method_id: 'dlv_same_day', method_title: 'Express', meta_data: [] },
      { method_id: 'DLV', method_title: 'Express', meta_data: [] },
      { method_id: 'dlv:express', method_title: 'Express', meta_data: [] },
      { method_title: 'dlv', meta_data: [] },
    ];
    for (const line of lookalikes)
      expect(mapWooOrder(order({ shipping_lines: [line] }), 'ours'), JSON.stringify(line)).toMatchObject({
        kind: 'skip',
      });
    const mixed = order({
      shipping_lines: [
        lookalikes[0],
        { method_id: 'dlv', meta_data: [{ key: 'dlv_service', value: 'standard' }] },
      ],
    });
    expect(mapWooOrder(mixed, 'ours')).toMatchObject({ kind: 'order', input: { service: 'standard' } });
  });

  it('skips another method unless the brand takes every order, and refuses what we cannot deliver', () => {
    const flat = order({ shipping_lines: [{ method_id: 'flat_rate', meta_data: [] }] });
    expect(mapWooOrder(flat, 'ours')).toMatchObject({ kind: 'skip' });
    expect(mapWooOrder(flat, 'all')).toMatchObject({ kind: 'order', input: { service: 'standard' } });
    expect(
      mapWooOrder(order({ shipping: { country: 'BE', address_1: 'x', postcode: '1000' } }), 'ours'),
    ).toMatchObject({
      kind: 'problem',
      problem: 'out_of_zone',
    });
    expect(mapWooOrder(order({ shipping: {} }), 'ours')).toMatchObject({
      kind: 'problem',
      problem: 'invalid_address',
    });
    expect(mapWooOrder(order({ billing: { email: 'nope' } }), 'ours')).toMatchObject({
      kind: 'problem',
      problem: 'invalid_order',
    });
    expect(mapWooOrder(order({ currency: 'USD' }), 'ours')).toMatchObject({ input: { amount_eur: null } });
    expect(mapWooOrder({ id: '12' }, 'ours')).toBeNull();
  });
});

describe('wooLoad', () => {
  it('weighs the lines from their products in the store unit', () => {
    const weights: Record<number, string> = { 1: '0.45', 2: '', 3: '1.2' };
    const lines = [
      { product_id: 1, quantity: 2 },
      { product_id: 2, quantity: 5 },
      { product_id: 3, quantity: 1 },
    ];
    expect(wooLoad(lines, (l) => weights[l.product_id!] ?? null, 1000)).toEqual({
      unit_type: 'parcel',
      quantity: 1,
      unit_weight: '2100g',
    });
    expect(wooLoad(lines, () => '16', 28.349523125)).toMatchObject({ unit_weight: '3629g' });
    expect(wooLoad(lines, () => null, 1000)).toEqual({ unit_type: 'parcel', quantity: 1 });
  });
});
