import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfOf } from './support/account-browser.ts';
import { call } from './support/app.ts';
import { type ConsoleOperator, consoleOperator } from './support/console.ts';
import { type PlanningDay, planningDay } from './support/planning-day.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';

/**
 * The console's Planning page (issue 39) on a database of its own: only the roles that plan change
 * the plan (finance gets the 403 page, support reads it); every change is a form with its CSRF
 * token, goes through the round service with the version the page showed (a round changed
 * meanwhile is a 409 page saying so, nothing written) and is in the audit trail with its author;
 * the stops left off the rounds are listed with their reason.
 */
let t: ScratchTestApp;
let day: PlanningDay;
const DAY = '2026-12-02';
const now = new Date('2026-12-01T15:00:00Z');
let dispatcher: ConsoleOperator;
let rival: ConsoleOperator;
let finance: ConsoleOperator;
let support: ConsoleOperator;
const PAGE = `/console/planning?date=${DAY}`;
const OPS_TOKEN = 'test-ops-token-0123456789abcdefgh';

beforeAll(async () => {
  t = await buildScratchTestApp({
    clock: () => now,
    config: {
      opsToken: OPS_TOKEN,
      optimiser: { url: null, timeoutMs: 1000, timeLimitMs: 300 },
    },
  });
  dispatcher = await consoleOperator(t.app, t.deps, 'dispatcher', () => now, '10.94.0.1');
  rival = await consoleOperator(t.app, t.deps, 'dispatcher', () => now, '10.94.0.2');
  finance = await consoleOperator(t.app, t.deps, 'finance', () => now, '10.94.0.3');
  support = await consoleOperator(t.app, t.deps, 'support', () => now, '10.94.0.4');
  day = await planningDay(t, DAY, {
    orders: 24,
    crew: [
      { courier: 'Ana Bike', vehicle: 'Bike A', parcels: 10, kg: 30, from: '08:00', to: '12:00' },
      { courier: 'Ben Bike', vehicle: 'Bike B', parcels: 10, kg: 30, from: '08:00', to: '12:00' },
    ],
    spare: 'Van Spare',
  });
}, 180_000);
afterAll(async () => t?.close());

const count = async (sql: string, values: unknown[] = []) =>
  Number((await t.pool.query(sql, values)).rows[0].count);
const roundsOfDay = () => count('SELECT count(*) FROM rounds WHERE round_date = $1', [DAY]);
const audited = (action: string, operatorId: string) =>
  count('SELECT count(*) FROM audit_events WHERE action = $1 AND actor_kind = $2 AND actor_id = $3', [
    action,
    'operator',
    operatorId,
  ]);

/** The rounds as the page shows them: id, version, and the stops' form values in order. */
function roundsOn(body: string) {
  return [
    ...body.matchAll(/<section class="round" id="round-(rnd_\w+)" data-round="\w+" data-version="(\d+)"/g),
  ].map((m) => {
    const start = body.indexOf(m[0]);
    const end = body.indexOf('</section>', start);
    const stops = [...body.slice(start, end).matchAll(/data-stop="([^"]+)"/g)].map((s) => s[1]!);
    return { id: m[1]!, version: m[2]!, stops };
  });
}
const stopsOf = async (roundId: string) =>
  (
    await t.pool.query(
      `SELECT o.tracking_ref, s.pinned FROM round_stops s JOIN orders o ON o.id = s.order_id
        WHERE s.round_id = $1 ORDER BY s.position`,
      [roundId],
    )
  ).rows as { tracking_ref: string; pinned: boolean }[];

describe('who may plan', () => {
  it('finance gets the 403 page, for the page and its forms; nothing changes', async () => {
    const page = await finance.b.get(PAGE);
    expect(page.status).toBe(403);
    expect(page.body).toContain('Not for your role');
    expect(page.body).not.toContain('href="/console/planning"');
    const token = csrfOf((await finance.b.get('/console/finance')).body);
    const res = await finance.b.post('/console/planning/plan', { _csrf: token, date: DAY, mode: 'optimise' });
    expect(res.status).toBe(403);
    expect(await roundsOfDay()).toBe(0);
  });

  it('support reads the plan without its forms and cannot plan', async () => {
    const page = await support.b.get(PAGE);
    expect(page.status).toBe(200);
    expect(page.body).toContain('a dispatcher or an admin changes it');
    expect(page.body).not.toContain('action="/console/planning/plan"');
    expect(page.body).not.toContain('planning.js');
    const res = await support.b.post('/console/planning/plan', {
      _csrf: csrfOf(page.body),
      date: DAY,
      mode: 'optimise',
    });
    expect(res.status).toBe(403);
    expect(await roundsOfDay()).toBe(0);
  });
});

describe('planning the day', () => {
  it('refuses the form without its CSRF token; nothing planned, nothing audited', async () => {
    const before = await audited('round.planned', dispatcher.id);
    const res = await dispatcher.b.post('/console/planning/plan', { date: DAY, mode: 'optimise' });
    expect(res.status).toBe(403);
    expect(await roundsOfDay()).toBe(0);
    expect(await audited('round.planned', dispatcher.id)).toBe(before);
  });

  it('optimises the day: the rounds with their stops, the unplaced parcels with the optimiser’s reason, audited', async () => {
    const page = await dispatcher.b.get(PAGE);
    expect(page.status).toBe(200);
    expect(page.body).toContain('No round on this day yet');
    expect(page.body).toContain('Not planned yet');
    const res = await dispatcher.b.post('/console/planning/plan', {
      _csrf: csrfOf(page.body),
      date: DAY,
      mode: 'optimise',
    });
    expect(res.status, res.body.slice(0, 500)).toBe(200);
    expect(res.body).toContain('The day is optimised (in-process)');
    const rounds = roundsOn(res.body);
    expect(rounds).toHaveLength(2);
    expect(await roundsOfDay()).toBe(2);
    // 24 parcels of one or two items for 20 places: some are left, each with the optimiser's reason.
    expect(res.body).toMatch(/data-reason="(capacity|shift)"/);
    expect(res.body).toContain('Beyond the vehicles’ capacity');
    expect(res.body).toContain('Ana Bike');
    expect(await audited('round.planned', dispatcher.id)).toBe(2);
    // Read later, a stop left off is said to be not planned.
    const later = await dispatcher.b.get(PAGE);
    expect(later.body).toContain('data-reason="not_planned"');
    expect(roundsOn(later.body).map((r) => r.stops.length)).toEqual(rounds.map((r) => r.stops.length));
  }, 60_000);
});

describe('changing the plan', () => {
  it('moves a stop to another round at the place it was dropped, audited with its author', async () => {
    const page = await dispatcher.b.get(PAGE);
    const [from, to] = roundsOn(page.body);
    const stop = from!.stops[0]!;
    const res = await dispatcher.b.post(`/console/planning/rounds/${from!.id}/stops`, {
      _csrf: csrfOf(page.body),
      date: DAY,
      version: from!.version,
      stop,
      to: `${to!.id}@${to!.version}`,
      position: '2',
      op: 'move',
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe(
      `/console/planning?date=${DAY}&done=moved&round=${to!.id}&stop=${stop.slice(2)}#round-${to!.id}`,
    );
    expect((await stopsOf(to!.id))[1]!.tracking_ref).toBe(stop.slice(2));
    expect((await stopsOf(from!.id)).map((s) => s.tracking_ref)).not.toContain(stop.slice(2));
    const after = await dispatcher.b.get(res.location!);
    expect(after.body).toContain(`Stop ${stop.slice(2)} moved to round`);
    expect(await audited('round.stop_moved', dispatcher.id)).toBe(2);
  });

  it('puts a stop at another place on its own round (the same form, "This round"), audited', async () => {
    const page = await dispatcher.b.get(PAGE);
    const [round] = roundsOn(page.body);
    const last = round!.stops.at(-1)!;
    const res = await dispatcher.b.post(`/console/planning/rounds/${round!.id}/stops`, {
      _csrf: csrfOf(page.body),
      date: DAY,
      version: round!.version,
      stop: last,
      to: `${round!.id}@${round!.version}`,
      position: '1',
      op: 'move',
    });
    expect(res.status, res.body.slice(0, 300)).toBe(303);
    const now = await stopsOf(round!.id);
    expect(now[0]!.tracking_ref).toBe(last.slice(2));
    expect(now.map((s) => `o:${s.tracking_ref}`).sort()).toEqual([...round!.stops].sort());
    expect((await dispatcher.b.get(res.location!)).body).toContain(
      `Stop ${last.slice(2)} is now stop 1 of round`,
    );
    expect(await audited('round.stops_set', dispatcher.id)).toBe(1);
    const beyond = await dispatcher.b.post(`/console/planning/rounds/${round!.id}/stops`, {
      _csrf: csrfOf(page.body),
      date: DAY,
      version: String(Number(round!.version) + 1),
      stop: last,
      to: `${round!.id}@${round!.version}`,
      position: '99',
      op: 'move',
    });
    expect(beyond.status).toBe(400);
    expect(beyond.body).toContain('position: must be from 1 to');
  });

  it('without a stop chosen, says so (400) and changes nothing', async () => {
    const page = await dispatcher.b.get(PAGE);
    const [from, to] = roundsOn(page.body);
    const res = await dispatcher.b.post(`/console/planning/rounds/${from!.id}/stops`, {
      _csrf: csrfOf(page.body),
      date: DAY,
      version: from!.version,
      to: `${to!.id}@${to!.version}`,
      op: 'move',
    });
    expect(res.status).toBe(400);
    expect(res.body).toContain('Select a stop of the round first.');
    expect(roundsOn(res.body)[0]!.version).toBe(from!.version);
  });

  it('two dispatchers on one round: the second is told of the conflict, nothing overwritten', async () => {
    const mine = await dispatcher.b.get(PAGE);
    const theirs = await rival.b.get(PAGE);
    const [round, other] = roundsOn(mine.body);
    // The first dispatcher pins the round's first stop.
    const pinned = await dispatcher.b.post(`/console/planning/rounds/${round!.id}/stops`, {
      _csrf: csrfOf(mine.body),
      date: DAY,
      version: round!.version,
      stop: round!.stops[0]!,
      op: 'pin',
    });
    expect(pinned.status).toBe(303);
    expect((await dispatcher.b.get(pinned.location!)).body).toContain('is pinned to round');
    const stopsBefore = await stopsOf(round!.id);
    expect(stopsBefore[0]!.pinned).toBe(true);
    // The second, on the page loaded before, moves the same round's last stop away.
    const auditBefore = await count(
      'SELECT count(*) FROM audit_events WHERE actor_id = $1 AND action LIKE $2',
      [rival.id, 'round.%'],
    );
    const stale = await rival.b.post(`/console/planning/rounds/${round!.id}/stops`, {
      _csrf: csrfOf(theirs.body),
      date: DAY,
      version: round!.version,
      stop: round!.stops.at(-1)!,
      to: `${other!.id}@${other!.version}`,
      op: 'move',
    });
    expect(stale.status).toBe(409);
    const name = (await t.pool.query('SELECT name FROM rounds WHERE id = $1', [round!.id])).rows[0].name;
    expect(stale.body).toContain(
      `Someone else changed round ${name} since this page was loaded: nothing was changed.`,
    );
    // The page now shows the round as it is, with its new version.
    expect(roundsOn(stale.body).find((r) => r.id === round!.id)!.version).not.toBe(round!.version);
    expect(await stopsOf(round!.id)).toEqual(stopsBefore);
    expect(
      await count('SELECT count(*) FROM audit_events WHERE actor_id = $1 AND action LIKE $2', [
        rival.id,
        'round.%',
      ]),
    ).toBe(auditBefore);
    // The same in French.
    const fr = await rival.b.post(`/console/planning/rounds/${round!.id}/assign?lang=fr`, {
      _csrf: csrfOf(theirs.body),
      date: DAY,
      version: round!.version,
      courier: '',
      vehicle: '',
    });
    expect(fr.status).toBe(409);
    expect(fr.body).toContain('Quelqu’un d’autre a modifié la tournée');
  });

  it('assigns a courier and a vehicle to a round, audited with both changes', async () => {
    const page = await dispatcher.b.get(PAGE);
    const [round] = roundsOn(page.body);
    const res = await dispatcher.b.post(`/console/planning/rounds/${round!.id}/assign`, {
      _csrf: csrfOf(page.body),
      date: DAY,
      version: round!.version,
      courier: day.couriers['Ben Bike']!,
      vehicle: day.vehicles['Van Spare']!,
    });
    expect(res.status).toBe(303);
    const row = (await t.pool.query('SELECT courier_id, vehicle_id FROM rounds WHERE id = $1', [round!.id]))
      .rows[0];
    expect(row).toEqual({ courier_id: day.couriers['Ben Bike'], vehicle_id: day.vehicles['Van Spare'] });
    const entry = (
      await t.pool.query(
        `SELECT changes FROM audit_events WHERE action = 'round.assigned' AND actor_id = $1 ORDER BY id DESC LIMIT 1`,
        [dispatcher.id],
      )
    ).rows[0];
    expect(entry.changes.vehicle_id.after).toBe(day.vehicles['Van Spare']);
    expect((await dispatcher.b.get(res.location!)).body).toContain('courier and vehicle saved');
  });

  it('refuses each change without its CSRF token; nothing changes', async () => {
    const page = await dispatcher.b.get(PAGE);
    const [round, other] = roundsOn(page.body);
    const before = await stopsOf(round!.id);
    const auditBefore = await count('SELECT count(*) FROM audit_events WHERE actor_id = $1', [dispatcher.id]);
    for (const [url, form] of [
      [
        `/console/planning/rounds/${round!.id}/stops`,
        { stop: round!.stops[0]!, to: `${other!.id}@${other!.version}`, op: 'move' },
      ],
      [`/console/planning/rounds/${round!.id}/assign`, { courier: '', vehicle: '' }],
      ['/console/planning/plan', { mode: 'optimise' }],
    ] as const) {
      const res = await dispatcher.b.post(url, { date: DAY, version: round!.version, ...form });
      expect(res.status, url).toBe(403);
    }
    expect(await stopsOf(round!.id)).toEqual(before);
    expect(await count('SELECT count(*) FROM audit_events WHERE actor_id = $1', [dispatcher.id])).toBe(
      auditBefore,
    );
  });

  it('is what the operations API does: PATCH /rounds/{id} gives a vehicle, the courier kept; neither is a 400', async () => {
    const page = await dispatcher.b.get(PAGE);
    const [round] = roundsOn(page.body);
    const ops = (payload: object) =>
      call(t.app, {
        method: 'PATCH',
        url: `/ops/v1/rounds/${round!.id}`,
        headers: { authorization: `Bearer ${OPS_TOKEN}` },
        payload,
      });
    const courierBefore = (await t.pool.query('SELECT courier_id FROM rounds WHERE id = $1', [round!.id]))
      .rows[0].courier_id;
    const neither = await ops({ version: Number(round!.version) });
    expect(neither.statusCode).toBe(400);
    expect(neither.data.details[0].field).toBe('courier_id');
    const unknown = await ops({ vehicle_id: 'No such van', version: Number(round!.version) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.data.details[0].field).toBe('vehicle_id');
    const res = await ops({ vehicle_id: 'Bike A', version: Number(round!.version) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.round).toMatchObject({ vehicle_id: day.vehicles['Bike A'], courier_id: courierBefore });
    const stale = await ops({ vehicle_id: null, version: Number(round!.version) });
    expect(stale.statusCode).toBe(409);
    expect(stale.data.error).toBe('round_conflict');
  });
});
