import { describe, expect, it } from 'vitest';
import { mapPaidOrder, shopifyUnits } from './order-mapping.ts';
import { parseShopifyJson, quoteLongIntegers } from './shopify-json.ts';

const ORDER = `{"id":820982911946154508,"admin_graphql_api_id":"gid://shopify/Order/820982911946154508",
  "name":"#9999","email":"Jon@Example.com","currency":"EUR","total_price":"59.90","phone":null,
  "customer":{"id":115310627314723954,"email":"jon@example.com"},
  "shipping_address":{"first_name":"Jon","last_name":"Doe","name":"Jon Doe","company":"Acme","address1":"12 rue Oberkampf",
    "address2":"Bât. B","zip":"75011","city":"Paris","country_code":"FR","phone":"+33 6 12 34 56 78"},
  "shipping_lines":[{"code":"express","title":"Livraison DLV — Express","source":"Livraison DLV",
    "carrier_identifier":"650f1a14fa979ec5c74d063e968411d4"}],
  "line_items":[{"id":866550311766439020,"grams":250,"quantity":3,"requires_shipping":true},
                {"id":141249953214522974,"grams":5000,"quantity":1,"requires_shipping":false},
                {"id":257004973105704598,"grams":0,"quantity":2,"requires_shipping":true}]}`;

const CARRIER = 'Livraison DLV';

describe('Shopify ids', () => {
  it('keeps ids beyond 2^53 exact, where JSON.parse rounds them', () => {
    expect(String((JSON.parse(ORDER) as { id: number }).id)).not.toBe('820982911946154508');
    const parsed = parseShopifyJson(ORDER) as {
      id: string;
      customer: { id: string };
      line_items: { id: string }[];
    };
    expect(parsed.id).toBe('820982911946154508');
    expect(parsed.customer.id).toBe('115310627314723954');
    expect(parsed.line_items.map((i) => i.id)).toEqual([
      '866550311766439020',
      '141249953214522974',
      '257004973105704598',
    ]);
  });

  it('quotes long integers in arrays, never digits inside strings, and leaves short numbers and decimals', () => {
    const text =
      '{"orders_to_redact":[820982911946154508,-1234567890123456789],"note":"id: 1234567890123456789, \\"x\\": 99999999999999999","n":12,"f":1234567890123456.5}';
    const parsed = JSON.parse(quoteLongIntegers(text));
    expect(parsed).toEqual({
      orders_to_redact: ['820982911946154508', '-1234567890123456789'],
      note: 'id: 1234567890123456789, "x": 99999999999999999',
      n: 12,
      f: 1234567890123456.5,
    });
  });
});

describe('paid order → delivery order input', () => {
  it('maps e-mail, total, address, recipient, phone, service, units and reference', () => {
    const mapped = mapPaidOrder(parseShopifyJson(ORDER), 'ours', CARRIER);
    expect(mapped).toEqual({
      kind: 'order',
      ref: {
        gid: 'gid://shopify/Order/820982911946154508',
        name: '#9999',
        customerGid: 'gid://shopify/Customer/115310627314723954',
      },
      input: {
        customer_email: 'Jon@Example.com',
        amount_eur: 59.9,
        delivery_address: '12 rue Oberkampf, Bât. B 75011 Paris',
        delivery_recipient: 'Jon Doe, Acme',
        delivery_phone: '+33 6 12 34 56 78',
        delivery_email: 'Jon@Example.com',
        service: 'express',
        unit_type: 'parcel',
        quantity: 1,
        unit_weight: '750g',
        reference: '#9999',
      },
    });
  });

  it('takes only our carrier service’s rates: a merchant rate or another carrier’s named like ours is not', () => {
    const withLine = (line: Record<string, unknown>) => {
      const order = parseShopifyJson(ORDER) as Record<string, unknown>;
      order.shipping_lines = [line];
      return order;
    };
    // Shopify's merchant rate: source "shopify", carrier_identifier null, code = the rate's name.
    for (const name of ['Standard', 'Express', 'Livraison', 'economy', 'Livraison DLV']) {
      const merchant = withLine({ code: name, title: name, source: 'shopify', carrier_identifier: null });
      expect(mapPaidOrder(merchant, 'ours', CARRIER)?.kind, name).toBe('skip');
      const all = mapPaidOrder(merchant, 'all', CARRIER);
      expect(all?.kind === 'order' && all.input.service, name).toBe('standard');
    }
    const carrier = (source: string, code: string, id: string | null = 'a7c3e9d1f0b2c4d6e8f0a1b3c5d7e9f1') =>
      withLine({ code, title: `${source} — ${code}`, source, carrier_identifier: id });
    for (const other of [
      carrier('Colissimo', 'express'),
      carrier('ups_shipping', 'standard'),
      carrier(CARRIER, 'Livraison'),
      carrier(CARRIER, 'express', null),
    ])
      expect(mapPaidOrder(other, 'ours', CARRIER)?.kind).toBe('skip');
    for (const code of ['express', 'standard', 'economy']) {
      const ours = mapPaidOrder(carrier(CARRIER, code), 'ours', CARRIER);
      expect(ours?.kind === 'order' && ours.input.service).toBe(code);
    }
    // The name is compared as Shopify may case it; another of the shop's lines does not hide ours.
    const both = withLine({});
    both.shipping_lines = [
      { code: 'Express', title: 'Express', source: 'shopify', carrier_identifier: null },
      { code: 'economy', source: 'livraison dlv', carrier_identifier: 'a7c3e9d1f0b2c4d6e8f0a1b3c5d7e9f1' },
    ];
    const mapped = mapPaidOrder(both, 'ours', CARRIER);
    expect(mapped?.kind === 'order' && mapped.input.service).toBe('economy');
  });

  it('skips orders not shipped with us unless the brand takes all, then uses the default service', () => {
    const other = parseShopifyJson(ORDER.replace('"code":"express"', '"code":"ups_ground"'));
    expect(mapPaidOrder(other, 'ours', CARRIER)?.kind).toBe('skip');
    const all = mapPaidOrder(other, 'all', CARRIER);
    expect(all?.kind === 'order' && all.input.service).toBe('standard');
  });

  it('makes problems of a foreign or missing address and of a missing e-mail; drops an unreadable phone', () => {
    const foreign = mapPaidOrder(
      parseShopifyJson(ORDER.replace('"country_code":"FR"', '"country_code":"BE"')),
      'ours',
      CARRIER,
    );
    expect(foreign).toMatchObject({ kind: 'problem', problem: 'out_of_zone' });
    const noAddress = parseShopifyJson(ORDER) as Record<string, unknown>;
    noAddress.shipping_address = null;
    expect(mapPaidOrder(noAddress, 'ours', CARRIER)).toMatchObject({
      kind: 'problem',
      problem: 'invalid_address',
    });
    const noEmail = parseShopifyJson(
      ORDER.replaceAll('"email":"Jon@Example.com"', '"email":null').replace(
        '"email":"jon@example.com"',
        '"email":null',
      ),
    );
    expect(mapPaidOrder(noEmail, 'ours', CARRIER)).toMatchObject({
      kind: 'problem',
      problem: 'invalid_order',
    });
    const badPhone = mapPaidOrder(
      parseShopifyJson(ORDER.replace('+33 6 12 34 56 78', '12')),
      'ours',
      CARRIER,
    );
    expect(badPhone?.kind === 'order' && badPhone.input.delivery_phone).toBeNull();
  });

  it('leaves the amount out of an order in another currency', () => {
    const usd = mapPaidOrder(
      parseShopifyJson(ORDER.replace('"currency":"EUR"', '"currency":"USD"')),
      'ours',
      CARRIER,
    );
    expect(usd?.kind === 'order' && usd.input.amount_eur).toBeNull();
  });
});

describe('shopifyUnits', () => {
  it('is one parcel of the shipped weight, or the default weight when nothing weighs', () => {
    expect(
      shopifyUnits([
        { grams: 100, quantity: 4 },
        { grams: 50.2, quantity: 1 },
      ]),
    ).toEqual({
      unit_type: 'parcel',
      quantity: 1,
      unit_weight: '451g',
    });
    expect(shopifyUnits([{ grams: 0, quantity: 1 }])).toEqual({ unit_type: 'parcel', quantity: 1 });
  });
});

describe("the shipping address's coordinates (SPEC §11)", () => {
  const withPoint = (latitude: unknown, longitude: unknown) => {
    const payload = parseShopifyJson(ORDER) as { shipping_address: Record<string, unknown> };
    payload.shipping_address.latitude = latitude;
    payload.shipping_address.longitude = longitude;
    return payload;
  };
  const mapped = (payload: unknown) => {
    const result = mapPaidOrder(payload, 'all', CARRIER);
    if (result?.kind !== 'order') throw new Error(`not an order: ${result?.kind}`);
    return result.input;
  };

  it('are the order’s delivery_lat / delivery_lng, kept to 6 decimals', () => {
    expect(mapped(withPoint(48.8588281234, 2.3795059876))).toMatchObject({
      delivery_lat: 48.858828,
      delivery_lng: 2.379506,
    });
  });

  it('are left out when missing or unusable (none, one, outside the region)', () => {
    for (const [lat, lng] of [
      [null, null],
      [48.86, null],
      [45.764, 4.8357],
      [0, 0],
    ]) {
      const input = mapped(withPoint(lat, lng));
      expect(input).not.toHaveProperty('delivery_lat');
      expect(input).not.toHaveProperty('delivery_lng');
    }
  });
});
