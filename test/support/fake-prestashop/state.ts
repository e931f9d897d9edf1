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

interface PsCall {
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
  /** The e-mails the shop sent its customers (OrderHistory::addWithemail: the state's own mail). */
  mails: { idOrder: number; idOrderState: number; to: string }[];
  /** Calls whose answer is lost after the shop applied them (a proxy timing out): see loseAnswerOf. */
  losing: { method: string; path: string }[];
}

/** `YYYY-MM-DD HH:MM:SS` in the shop's timezone, as PrestaShop stores dates. */
export const psDate = (shop: PsShop, ms = Date.now()) => wallTime(ms, shop.timeZone).replace('T', ' ');

/** A Configuration value (Configuration::get), or null. */
export function configuration(shop: PsShop, name: string): string | null {
  const row = shop.tables.configurations!.find((c) => c.name === name);
  return row ? String(row.value) : null;
}

function nextRowId(shop: PsShop, resource: string): number {
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
    mails: [],
    losing: [],
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
  insert(shop, 'currencies', {
    name: 'Euro',
    iso_code: 'EUR',
    conversion_rate: '1.000000',
    deleted: 0,
    active: 1,
  });
  // Our module's carriers, one per service (external_module_name dlvshipping), then a carrier of the
  // shop's own that is not ours.
  const carriers: [number, string, string, string][] = [
    [7, 'Livraison DLV — Express', 'dlvshipping', 'https://suivi.livraison-dlv.fr/t/@'],
    [8, 'Livraison DLV — Standard', 'dlvshipping', 'https://suivi.livraison-dlv.fr/t/@'],
    [9, 'Livraison DLV — Économique', 'dlvshipping', 'https://suivi.livraison-dlv.fr/t/@'],
    [12, 'Colissimo', '', 'https://www.laposte.fr/outils/suivre-vos-envois?code=@'],
  ];
  for (const [reference, name, module, url] of carriers)
    insert(shop, 'carriers', {
      deleted: 0,
      is_module: module ? 1 : 0,
      id_tax_rules_group: 1,
      id_reference: reference,
      name,
      active: 1,
      is_free: 0,
      url,
      shipping_handling: 0,
      shipping_external: module ? 1 : 0,
      range_behavior: 0,
      shipping_method: 2,
      max_width: 0,
      max_height: 0,
      max_depth: 0,
      max_weight: 0,
      grade: 0,
      external_module_name: module,
      need_range: module ? 1 : 0,
      position: reference,
      delay: 'Livré en 24 à 72 h',
    });
  // PS_OS_* as installed; DLV_CARRIER_REF_* as our module keeps its carriers' id_reference.
  for (const [name, value] of [
    ['PS_WEIGHT_UNIT', 'kg'],
    ['PS_TIMEZONE', timeZone],
    ['PS_OS_SHIPPING', '4'],
    ['PS_OS_DELIVERED', '5'],
    ['PS_OS_CANCELED', '6'],
    ['DLV_CARRIER_REF_EXPRESS', '7'],
    ['DLV_CARRIER_REF_STANDARD', '8'],
    ['DLV_CARRIER_REF_ECONOMY', '9'],
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
