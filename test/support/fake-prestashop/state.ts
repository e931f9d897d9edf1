import { randomBytes } from 'node:crypto';
import { wallTime } from '../fake-woocommerce/dates.ts';
import { ORDER_STATES, RESOURCES } from './resources.ts';

export type PsMode = 'up' | 'down' | 'unauthorized';
/** A stored object: every field as the string PrestaShop renders (ids too, except `id`). */
export type Row = { id: number } & Record<string, string | number>;

export interface WebserviceKey {
  key: string;
  active: boolean;
  /** resource → allowed methods (GET, PUT, POST, PATCH, DELETE, HEAD). */
  permissions: Record<string, string[]>;
}

export interface PsCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: string;
  status: number;
  at: number;
}

export interface PsShop {
  slug: string;
  /** The shop's base URL; the Webservice is at {url}/api/. */
  url: string;
  timeZone: string;
  mode: PsMode;
  keys: WebserviceKey[];
  tables: Record<string, Row[]>;
  /** orders' order_rows association, by order id. */
  orderRows: Map<number, Record<string, string>[]>;
  calls: PsCall[];
}

/** `YYYY-MM-DD HH:MM:SS` in the shop's timezone, as PrestaShop stores dates. */
export const psDate = (shop: PsShop, ms = Date.now()) => wallTime(ms, shop.timeZone).replace('T', ' ');

export function nextRowId(shop: PsShop, resource: string): number {
  return (shop.tables[resource] ?? []).reduce((max, row) => Math.max(max, row.id), 0) + 1;
}

/** A row with every field of the resource ('' when not given), as PrestaShop would output it. */
export function insert(shop: PsShop, resource: string, values: Record<string, string | number>): Row {
  const fields = RESOURCES[resource]!.fields;
  const row: Row = { id: nextRowId(shop, resource) };
  for (const field of fields) if (field !== 'id') row[field] = String(values[field] ?? '');
  shop.tables[resource]!.push(row);
  return row;
}

/** A fresh 32-character Webservice key, as the back office generates them. */
export function newKeyValue(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from(randomBytes(32), (b) => chars[b % chars.length]).join('');
}

export function newShop(slug: string, url: string, timeZone: string): PsShop {
  const shop: PsShop = {
    slug,
    url,
    timeZone,
    mode: 'up',
    keys: [],
    tables: Object.fromEntries(Object.keys(RESOURCES).map((r) => [r, []])),
    orderRows: new Map(),
    calls: [],
  };
  const now = psDate(shop);
  for (const [id, name, flags] of ORDER_STATES) {
    shop.tables.order_states!.push({
      id,
      unremovable: '1',
      delivery: flags.delivery ? '1' : '0',
      hidden: '0',
      send_email: '1',
      module_name: '',
      invoice: flags.paid ? '1' : '0',
      color: '#32CD32',
      logable: flags.paid ? '1' : '0',
      shipped: flags.shipped ? '1' : '0',
      paid: flags.paid ? '1' : '0',
      pdf_delivery: '0',
      pdf_invoice: '0',
      deleted: '0',
      name: name,
      template: '',
    });
  }
  insert(shop, 'countries', {
    id_zone: 1,
    id_currency: 0,
    call_prefix: 33,
    iso_code: 'FR',
    active: 1,
    contains_states: 0,
    need_zip_code: 1,
    zip_code_format: 'NNNNN',
    name: 'France',
  });
  // France is id 8 in PrestaShop's installed data.
  shop.tables.countries![0]!.id = 8;
  insert(shop, 'carriers', {
    deleted: 0,
    is_module: 1,
    id_tax_rules_group: 1,
    id_reference: 7,
    name: 'Livraison le jour même',
    active: 1,
    is_free: 0,
    url: 'https://suivi.delivery-orders.example/t/@',
    shipping_handling: 0,
    shipping_external: 1,
    range_behavior: 0,
    shipping_method: 2,
    max_width: 0,
    max_height: 0,
    max_depth: 0,
    max_weight: 0,
    grade: 0,
    external_module_name: 'deliveryorders',
    need_range: 1,
    position: 1,
    delay: 'Livré aujourd’hui',
  });
  for (const [name, value] of [
    ['PS_WEIGHT_UNIT', 'kg'],
    ['PS_TIMEZONE', timeZone],
  ] as const)
    insert(shop, 'configurations', {
      name,
      value,
      id_shop_group: '',
      id_shop: '',
      date_add: now,
      date_upd: now,
    });
  for (const [reference, name, price, weight] of [
    ['THE-VERT-01', 'Coffret thé vert', '24.900000', '0.450000'],
    ['BOUGIE-FIG', 'Bougie parfumée « Figuier »', '12.500000', '0.200000'],
  ] as const)
    insert(shop, 'products', {
      reference,
      name,
      price,
      weight,
      width: '12',
      height: '8',
      depth: '20',
      active: 1,
      date_add: now,
      date_upd: now,
    });
  return shop;
}
