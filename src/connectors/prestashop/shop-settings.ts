import { SERVICE_CODES, type ServiceCode } from '../../domain/pricing/services.ts';
import type { PrestaShopWebservice } from './webservice-client.ts';

/** What the bridge reads of a shop's configuration (the `configurations` resource) and order states. */
export interface ShopSettings {
  /** PS_TIMEZONE: dates in the Webservice are this wall-clock time. */
  timeZone: string | null;
  /** PS_WEIGHT_UNIT: products' `weight` is in it. */
  weightUnit: string;
  /** The "delivered" order state: PS_OS_DELIVERED, else the state named so. */
  deliveredStateId: number | null;
  /** The "cancelled" order state: PS_OS_CANCELED, else the state named so. */
  cancelledStateId: number | null;
  /** Our carriers' id_reference (DLV_CARRIER_REF_<SERVICE>, kept by the module) → service. */
  serviceOfCarrierRef: Map<string, ServiceCode>;
}

const CARRIER_REF = (service: ServiceCode) => `DLV_CARRIER_REF_${service.toUpperCase()}`;
const NAMES = [
  'PS_TIMEZONE',
  'PS_WEIGHT_UNIT',
  'PS_OS_DELIVERED',
  'PS_OS_CANCELED',
  ...SERVICE_CODES.map(CARRIER_REF),
];
const DELIVERED_NAMES = /^(livré|delivered)$/i;
const CANCELLED_NAMES = /^(annulé|cancell?ed)$/i;

type Row = Record<string, unknown>;

/** A Webservice list: `{"resource":[…]}`, or `[]` when empty (PrestaShop's JSON output). */
export function listOf(body: unknown, resource: string): Row[] {
  if (Array.isArray(body)) return [];
  const list = (body as Record<string, unknown> | null)?.[resource];
  return Array.isArray(list) ? (list as Row[]) : [];
}

/**
 * One object read by id (`GET /api/{resource}/{id}`): `{"order":{…}}` with the whole object, but a
 * one-item list under the plural name, `{"orders":[{…}]}`, when fields were chosen with
 * `display=[…]` (PrestaShop 8); null when neither holds an object.
 */
export function oneOf(body: unknown, resource: string, singular: string): Row | null {
  const object = (body as Record<string, unknown> | null)?.[singular];
  if (object && typeof object === 'object' && !Array.isArray(object)) return object as Row;
  return listOf(body, resource)[0] ?? null;
}

/** A multilingual field ([{id, value}]) or a plain one, as the strings it holds. */
const texts = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.map((v) => String((v as { value?: unknown })?.value ?? ''))
    : [String(value ?? '')];

export async function readShopSettings(
  ws: PrestaShopWebservice,
  shopUrl: string,
  key: string,
): Promise<ShopSettings> {
  const configurations = listOf(
    await ws.get(shopUrl, key, 'configurations', {
      display: '[name,value]',
      'filter[name]': `[${NAMES.join('|')}]`,
    }),
    'configurations',
  );
  const value = (name: string) => {
    const found = configurations.find((c) => c.name === name)?.value;
    return typeof found === 'string' && found.trim() !== '' ? found.trim() : null;
  };
  const serviceOfCarrierRef = new Map<string, ServiceCode>();
  for (const service of SERVICE_CODES) {
    const ref = value(CARRIER_REF(service));
    if (ref) serviceOfCarrierRef.set(ref, service);
  }
  let deliveredStateId = Number(value('PS_OS_DELIVERED')) || null;
  let cancelledStateId = Number(value('PS_OS_CANCELED')) || null;
  if (deliveredStateId === null || cancelledStateId === null) {
    const states = listOf(
      await ws.get(shopUrl, key, 'order_states', { display: '[id,name,deleted]' }),
      'order_states',
    );
    const named = (pattern: RegExp) => {
      const found = states.find(
        (s) => s.deleted !== '1' && texts(s.name).some((n) => pattern.test(n.trim())),
      );
      return found ? Number(found.id) || null : null;
    };
    deliveredStateId ??= named(DELIVERED_NAMES);
    cancelledStateId ??= named(CANCELLED_NAMES);
  }
  return {
    timeZone: value('PS_TIMEZONE'),
    weightUnit: (value('PS_WEIGHT_UNIT') ?? 'kg').toLowerCase(),
    deliveredStateId,
    cancelledStateId,
    serviceOfCarrierRef,
  };
}

const GRAMS_PER: Record<string, number> = { kg: 1000, g: 1, lb: 453.59237, lbs: 453.59237, oz: 28.349523 };

/** A product weight in the shop's unit as kilograms (3 decimals, as the module sends it); null: unknown unit. */
export function weightKg(weight: unknown, unit: string): string | null {
  const grams = GRAMS_PER[unit];
  const n = Number(weight);
  if (grams === undefined || !Number.isFinite(n) || n < 0) return null;
  return ((n * grams) / 1000).toFixed(3);
}
