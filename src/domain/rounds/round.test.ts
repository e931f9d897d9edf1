import { describe, expect, it } from 'vitest';
import { assignRoundRobin, type Candidate, planDay, type RoundOutline, stopKey } from './round.ts';

const delivery = (orderId: string, sortCode: string, postcode: string, address: string): Candidate => ({
  kind: 'delivery',
  orderId,
  sortCode,
  postcode,
  address,
});
const pickup = (pickupId: string, sortCode: string, postcode: string, address: string): Candidate => ({
  kind: 'pickup',
  pickupId,
  sortCode,
  postcode,
  address,
});
const keys = (stops: RoundOutline['stops']) => stops.map(stopKey);

describe('planDay', () => {
  it('makes one round per sort code, pickups first, then deliveries by postcode then address', () => {
    const plan = planDay(
      [],
      [
        delivery('3', 'PAR-11', '75011', '9 rue Oberkampf'),
        delivery('1', 'PAR-11', '75011', '12 rue Oberkampf'),
        delivery('2', 'PC-93', '93200', '1 place Victor Hugo'),
        pickup('pck_a', 'PAR-11', '75011', '5 rue Oberkampf'),
        delivery('4', 'PAR-11', '75010', '2 rue Alibert'),
      ],
      new Set(),
    );
    expect(plan.map((r) => [r.name, r.sortCodes, r.id, r.courierId])).toEqual([
      ['PAR-11', ['PAR-11'], null, null],
      ['PC-93', ['PC-93'], null, null],
    ]);
    expect(keys(plan[0]!.stops)).toEqual(['pickup:pck_a', 'delivery:4', 'delivery:1', 'delivery:3']);
    expect(keys(plan[1]!.stops)).toEqual(['delivery:2']);
    expect(plan.every((r) => r.changed)).toBe(true);
  });

  it('re-planning keeps the operator’s order and courier, adds new stops at the end, and drops cancelled ones', () => {
    const existing: RoundOutline[] = [
      {
        id: 'rnd_1',
        date: '2026-12-01',
        name: 'PAR-11',
        courierId: 'cou_a',
        sortCodes: ['PAR-11'],
        stops: [
          { kind: 'delivery', orderId: '3' },
          { kind: 'delivery', orderId: '1' },
          { kind: 'delivery', orderId: '9' },
        ],
      },
    ];
    const plan = planDay(
      existing,
      [
        delivery('1', 'PAR-11', '75011', 'b'),
        delivery('3', 'PAR-11', '75011', 'a'),
        delivery('5', 'PAR-11', '75011', 'c'),
        delivery('6', 'PAR-16', '75016', 'd'),
      ],
      new Set(['delivery:9']),
    );
    expect(plan[0]!.id).toBe('rnd_1');
    expect(plan[0]!.courierId).toBe('cou_a');
    expect(keys(plan[0]!.stops)).toEqual(['delivery:3', 'delivery:1', 'delivery:5']);
    expect(plan[1]).toMatchObject({ id: null, name: 'PAR-16', courierId: null });
  });

  it('changes nothing when nothing is new', () => {
    const existing: RoundOutline[] = [
      {
        id: 'rnd_1',
        date: 'd',
        name: 'PAR-11',
        courierId: null,
        sortCodes: ['PAR-11'],
        stops: [{ kind: 'delivery', orderId: '1' }],
      },
    ];
    const plan = planDay(existing, [delivery('1', 'PAR-11', '75011', 'x')], new Set());
    expect(plan.map((r) => r.changed)).toEqual([false]);
  });

  it('puts a stop on one round only, even when two rounds cover its code, and avoids a taken name', () => {
    const existing: RoundOutline[] = [
      { id: 'rnd_x', date: 'd', name: 'PC-93', courierId: null, sortCodes: ['PAR-01'], stops: [] },
      { id: 'rnd_y', date: 'd', name: 'Outer', courierId: null, sortCodes: ['PAR-11', 'PAR-12'], stops: [] },
    ];
    const plan = planDay(
      existing,
      [
        delivery('1', 'PAR-11', '75011', 'x'),
        delivery('2', 'PC-93', '93200', 'y'),
        delivery('1', 'PAR-11', '75011', 'x'),
      ],
      new Set(),
    );
    const all = plan.flatMap((r) => keys(r.stops));
    expect(all.filter((k) => k === 'delivery:1')).toHaveLength(1);
    expect(keys(plan.find((r) => r.id === 'rnd_y')!.stops)).toEqual(['delivery:1']);
    expect(plan.find((r) => r.id === null)).toMatchObject({ name: 'PC-93 (2)', sortCodes: ['PC-93'] });
  });
});

describe('assignRoundRobin', () => {
  it('gives unassigned rounds to the couriers with the fewest rounds, in turn, keeping assigned ones', () => {
    const plan = planDay(
      [{ id: 'rnd_1', date: 'd', name: 'A', courierId: 'cou_1', sortCodes: ['A'], stops: [] }],
      ['B', 'C', 'D', 'E'].map((code, i) => delivery(String(i), code, '75001', 'x')),
      new Set(),
    );
    assignRoundRobin(plan, ['cou_1', 'cou_2']);
    expect(plan.map((r) => [r.name, r.courierId])).toEqual([
      ['A', 'cou_1'],
      ['B', 'cou_2'],
      ['C', 'cou_1'],
      ['D', 'cou_2'],
      ['E', 'cou_1'],
    ]);
  });

  it('leaves rounds unassigned without enabled couriers', () => {
    const plan = planDay([], [delivery('1', 'A', '75001', 'x')], new Set());
    assignRoundRobin(plan, []);
    expect(plan[0]!.courierId).toBeNull();
  });
});
