import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import type { Deps } from '../../src/deps.ts';
import { PASSWORD, uniqueEmail } from './account-browser.ts';
import { createBrandWithKey } from './app.ts';
import { testOperator } from './audit.ts';
import { createOrder, VALID_ORDER } from './orders.ts';

/** Real Paris addresses with their coordinates (test/fixtures/paris-addresses.csv). */
function parisAddresses(): { address: string; lat: number; lng: number }[] {
  return readFileSync(new URL('../fixtures/paris-addresses.csv', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .slice(2)
    .map((line) => {
      const m = /^"(.*)",(\d{5}),([\d.]+),([\d.]+)$/.exec(line.trim())!;
      return { address: m[1]!.replace(',', ''), lat: Number(m[3]), lng: Number(m[4]) };
    });
}

export interface PlanningDay {
  refs: string[];
  /** Courier ids by their names. */
  couriers: Record<string, string>;
  /** Vehicle ids by their names. */
  vehicles: Record<string, string>;
}

/**
 * A day to plan, built through the services as an operator would: a hub, one vehicle and one
 * shift per courier, and `orders` parcels picked up for delivery on `date` at real Paris addresses
 * (one or two parcels of 1.5 kg each). Small vehicles leave some parcels unplaced ("capacity").
 */
export async function planningDay(
  t: { app: FastifyInstance; deps: Deps; pool: Pool },
  date: string,
  options: {
    orders: number;
    crew: { courier: string; vehicle: string; parcels: number; kg: number; from: string; to: string }[];
    /** One more vehicle, on no shift: for assigning by hand. */
    spare?: string;
  },
): Promise<PlanningDay> {
  const { deps } = t;
  const suffix = Date.now().toString(36);
  const hub = await deps.fleet.addHub(
    {
      name: `Hub Bastille ${suffix}`,
      address: '10 rue de la Roquette 75011 Paris',
      lat: 48.8541,
      lng: 2.3722,
    },
    testOperator,
  );
  const couriers: Record<string, string> = {};
  const vehicles: Record<string, string> = {};
  for (const c of options.crew) {
    const vehicle = await deps.fleet.addVehicle(
      { name: c.vehicle, kind: 'cargo_bike', capacityParcels: c.parcels, capacityKg: c.kg, hub: hub.id },
      testOperator,
    );
    vehicles[c.vehicle] = vehicle.id;
    const { courier } = await deps.couriers.add(
      { email: uniqueEmail(c.courier.split(' ')[0]!.toLowerCase()), name: c.courier, password: PASSWORD },
      testOperator,
    );
    couriers[c.courier] = courier.id;
    await deps.fleet.setShift(
      { courier: courier.id, date, startsAt: c.from, endsAt: c.to, vehicle: vehicle.id },
      testOperator,
    );
  }
  if (options.spare) {
    const spare = await deps.fleet.addVehicle(
      { name: options.spare, kind: 'electric_van', capacityParcels: 40, capacityKg: 200, hub: hub.id },
      testOperator,
    );
    vehicles[options.spare] = spare.id;
  }
  const brand = await createBrandWithKey(deps, { pickupAddress: '5 rue Oberkampf 75011 Paris' });
  const refs: string[] = [];
  for (const a of parisAddresses().slice(0, options.orders)) {
    const res = await createOrder(t.app, brand, { ...VALID_ORDER, delivery_address: a.address });
    if (res.statusCode !== 200) throw new Error(`order: ${res.statusCode} ${res.body}`);
    const ref = res.data.order.tracking_ref as string;
    refs.push(ref);
    await t.pool.query(
      `UPDATE orders SET status = 'picked_up', promised_date = $2, delivery_lat = $3, delivery_lng = $4,
              delivery_location_precision = 'rooftop', delivery_location_source = 'geocoder',
              quantity = 1 + (id % 2), unit_weight_grams = 1500
        WHERE tracking_ref = $1`,
      [ref, date, a.lat, a.lng],
    );
  }
  return { refs, couriers, vehicles };
}
