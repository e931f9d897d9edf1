import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isIsoDate } from '../../domain/calendar/iso-date.ts';
import { parisToday } from '../../domain/calendar/paris-time.ts';
import type { RoundJson, StopInput } from '../../domain/rounds/round-service.ts';
import { AppError, invalidField, isAppError } from '../../errors.ts';
import { planningTranslate } from '../../i18n/console-planning.ts';
import { query, text } from '../account/form.ts';
import { authorOf } from '../shared/author.ts';
import type { SafeHtml } from '../shared/html.ts';
import { needs, OPEN, sendPage } from './context.ts';
import type { ConsoleRouteDeps } from './route-deps.ts';
import { type ConsoleContext, errorNote, may, successNote } from './views/layout.ts';
import { PLANNING_PATH, planningPage, stopLabel, type UnplacedRow } from './views/planning.ts';

/** The page's drag-and-drop, served from this origin as console.js is (the CSP allows no other script). */
const SCRIPT = readFileSync(new URL('./static/planning.js', import.meta.url));

const TRACKING_REF = /^[A-Za-z0-9-]{1,64}$/;
const PICKUP_ID = /^[A-Za-z0-9_-]{1,64}$/;
const ROUND_AT_VERSION = /^(rnd_[0-9a-f]{16})@(\d{1,9})$/;

/** A form's stop (`o:<tracking ref>` or `p:<pickup id>`, views/planning.ts), or null when none is chosen. */
function stopOf(value: string): StopInput | null {
  const [kind, id] = [value.slice(0, 2), value.slice(2)];
  if (kind === 'o:' && TRACKING_REF.test(id)) return { tracking_ref: id };
  if (kind === 'p:' && PICKUP_ID.test(id)) return { pickup_id: id };
  return null;
}

/** The round version the page showed: every change names it, so an edit made meanwhile is never overwritten. */
function versionOf(value: string, field = 'version'): number {
  if (!/^\d{1,9}$/.test(value))
    throw invalidField(field, 'must be the round’s version as the page showed it');
  return Number(value);
}

/**
 * Planning: the day's rounds side by side, planned or optimised through the operations API's round
 * service (`POST /ops/v1/rounds/plan`), stops moved (drag-and-drop, or selected and sent with "Move
 * to"), pinned, rounds given a courier and a vehicle; the stops on no round with their reason. Each
 * change names the round versions the page showed: one made meanwhile by someone else is a 409 page
 * that says so, nothing written. Reading needs `rounds:read`; changing, `rounds:write`.
 */
export function planningRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): void {
  const today = () => parisToday(deps.clock());
  const dayOf = (value: string) => (isIsoDate(value) ? value : today());

  /** The page's frame for a POST answered with the page: the navigation and language link of Planning's. */
  const frame = async (request: FastifyRequest, reply: FastifyReply, date: string) => {
    const ctx = await deps.context(request, reply);
    const other = ctx.locale === 'fr' ? 'en' : 'fr';
    return {
      ...ctx,
      path: PLANNING_PATH,
      switchHref: `${PLANNING_PATH}?date=${encodeURIComponent(date)}&lang=${other}`,
    };
  };

  async function render(
    ctx: ConsoleContext,
    request: FastifyRequest,
    date: string,
    note: (rounds: RoundJson[]) => SafeHtml | string,
    unplaced?: UnplacedRow[],
  ): Promise<string> {
    const rounds = await deps.rounds.list(date, authorOf(request));
    const [couriers, vehicles] = await Promise.all([deps.couriers.list(), deps.fleet.listVehicles()]);
    const offRounds =
      unplaced ??
      (await deps.rounds.offRounds(date)).map((u) => ({
        kind: u.kind,
        label: u.tracking_ref ?? u.pickup_id ?? '',
        where: u.where,
        reason: u.reason,
      }));
    return planningPage(ctx, {
      date,
      rounds,
      couriers,
      vehicles,
      unplaced: offRounds,
      canWrite: may(ctx, 'rounds:write'),
      note: note(rounds),
    });
  }

  /** What a change left to say, after its redirect (checked against the rounds: a crafted link says nothing). */
  function doneNote(ctx: ConsoleContext, request: FastifyRequest, rounds: RoundJson[]): SafeHtml | string {
    const p = planningTranslate(ctx.locale);
    const round = rounds.find((r) => r.id === query(request, 'round', 30));
    if (!round) return '';
    const stop = round.stops.find((s) => stopLabel(s) === query(request, 'stop', 64));
    switch (query(request, 'done', 10)) {
      case 'assigned':
        return successNote(p('plan.assigned', { name: round.name }));
      case 'reordered':
        return stop
          ? successNote(
              p('plan.reordered', {
                stop: stopLabel(stop),
                position: String(stop.position),
                name: round.name,
              }),
            )
          : '';
      case 'moved':
        return stop ? successNote(p('plan.moved', { stop: stopLabel(stop), name: round.name })) : '';
      case 'pinned':
        return stop?.pinned
          ? successNote(p('plan.pinnedNote', { stop: stopLabel(stop), name: round.name }))
          : '';
      case 'unpinned':
        return stop && !stop.pinned ? successNote(p('plan.unpinnedNote', { stop: stopLabel(stop) })) : '';
      default:
        return '';
    }
  }

  /** After a change: the page again (a reload sends nothing twice), scrolled to the round changed. */
  const done = (reply: FastifyReply, date: string, what: string, roundId: string, stop = '') =>
    reply.redirect(
      `${PLANNING_PATH}?date=${date}&done=${what}&round=${roundId}${stop ? `&stop=${encodeURIComponent(stop)}` : ''}#round-${roundId}`,
      303,
    );

  /**
   * A refused change is the page again with what went wrong: a round changed meanwhile (409) says
   * which and that nothing was written, and shows the rounds as they now are. An unknown round is
   * the 404 page; a failure of ours, the 500 page.
   */
  async function refused(
    request: FastifyRequest,
    reply: FastifyReply,
    date: string,
    err: unknown,
    roundIds: { from?: string; to?: string } = {},
  ) {
    if (!isAppError(err) || err.status >= 500 || err.code === 'not_found') throw err;
    const ctx = await frame(request, reply, date);
    const p = planningTranslate(ctx.locale);
    const note = (rounds: RoundJson[]) => {
      if (err.code !== 'round_conflict') return errorNote(err.message);
      const id = err.details?.[0]?.field === 'to_version' ? roundIds.to : roundIds.from;
      const name = rounds.find((r) => r.id === id)?.name;
      return errorNote(name ? p('plan.conflict', { name }) : p('plan.conflictAny'));
    };
    return sendPage(reply, await render(ctx, request, date, note), err.status);
  }

  app.get('/static/planning.js', OPEN, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(SCRIPT),
  );

  /**
   * A stop put at another place on its own round: the round's stops in their new order, set
   * through the service with the version the page showed (PUT /ops/v1/rounds/{id}/stops).
   */
  async function reorder(
    request: FastifyRequest,
    roundId: string,
    stop: StopInput,
    position: number | null,
    version: number,
  ) {
    const by = authorOf(request);
    const round = await deps.rounds.get(roundId, by);
    const inputs: StopInput[] = round.stops.map((s) =>
      s.kind === 'delivery' ? { tracking_ref: s.order.tracking_ref } : { pickup_id: s.pickup.id },
    );
    const named = 'tracking_ref' in stop ? stop.tracking_ref : stop.pickup_id;
    const at = round.stops.findIndex((s) => stopLabel(s) === named);
    if (at < 0) throw invalidField('stop', `${named} is not a stop of round ${round.name}`);
    const to = position ?? inputs.length;
    if (to < 1 || to > inputs.length) throw invalidField('position', `must be from 1 to ${inputs.length}`);
    const [moving] = inputs.splice(at, 1);
    inputs.splice(to - 1, 0, moving!);
    await deps.rounds.setStops(roundId, inputs, by, version);
  }

  app.get('/planning', needs('rounds:read'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    const date = dayOf(query(request, 'date', 10));
    return sendPage(reply, await render(ctx, request, date, (rounds) => doneNote(ctx, request, rounds)));
  });

  app.post('/planning/plan', needs('rounds:write'), async (request, reply) => {
    const date = text(request, 'date', 10);
    const by = authorOf(request);
    try {
      const ctx = await frame(request, reply, date);
      const p = planningTranslate(ctx.locale);
      if (text(request, 'mode', 20) === 'sort_codes') {
        const rounds = await deps.rounds.plan({ date, assign: false }, by);
        const note = successNote(p('plan.planned', { rounds: String(rounds.length) }));
        return sendPage(reply, await render(ctx, request, date, () => note));
      }
      const day = await deps.rounds.planOptimised({ date }, by);
      const note = successNote(
        p('plan.optimised', {
          engine: day.engine,
          rounds: String(day.summary.rounds),
          stops: String(day.summary.stops),
          unplaced: String(day.summary.unplaced),
        }),
      );
      // Just planned, the optimiser's own reasons (capacity, window, shift…): the page read later
      // can only say that a stop is not planned.
      const off = await deps.rounds.offRounds(date);
      const whereOf = new Map(off.map((u) => [u.tracking_ref ?? u.pickup_id, u.where]));
      const unplaced = day.unplaced.map((u) => {
        const label = u.tracking_ref ?? u.pickup_id ?? '';
        return { kind: u.kind, label, where: whereOf.get(label) ?? null, reason: u.reason };
      });
      return sendPage(reply, await render(ctx, request, date, () => note, unplaced));
    } catch (err) {
      return refused(request, reply, dayOf(date), err);
    }
  });

  app.post('/planning/rounds/:id/stops', needs('rounds:write'), async (request, reply) => {
    const roundId = (request.params as { id: string }).id;
    const date = dayOf(text(request, 'date', 10));
    const target = ROUND_AT_VERSION.exec(text(request, 'to', 40));
    try {
      const ctx = await frame(request, reply, date);
      const p = planningTranslate(ctx.locale);
      const version = versionOf(text(request, 'version', 12));
      const stop = stopOf(text(request, 'stop', 70));
      if (!stop)
        throw new AppError('invalid_request', p('plan.chooseStop'), [
          { field: 'stop', message: 'is required' },
        ]);
      const label = 'tracking_ref' in stop ? stop.tracking_ref : stop.pickup_id;
      const op = text(request, 'op', 10);
      if (op === 'pin' || op === 'unpin') {
        await deps.rounds.pin(roundId, { stop, pinned: op === 'pin', version }, authorOf(request));
        return done(reply, date, op === 'pin' ? 'pinned' : 'unpinned', roundId, label);
      }
      if (op !== 'move') throw invalidField('op', 'must be move, pin or unpin');
      if (!target)
        throw new AppError('invalid_request', p('plan.chooseRound'), [
          { field: 'to', message: 'is required' },
        ]);
      const position = text(request, 'position', 6);
      if (position !== '' && !/^\d{1,5}$/.test(position))
        throw invalidField('position', 'must be a whole number from 1 (empty: at the end)');
      if (target[1] === roundId) {
        await reorder(request, roundId, stop, position === '' ? null : Number(position), version);
        return done(reply, date, 'reordered', roundId, label);
      }
      const moved = await deps.rounds.move(
        roundId,
        {
          stop,
          toRoundId: target[1]!,
          version,
          toVersion: Number(target[2]),
          ...(position !== '' && { position: Number(position) }),
        },
        authorOf(request),
      );
      return done(reply, date, 'moved', moved.to.id, label);
    } catch (err) {
      return refused(request, reply, date, err, { from: roundId, to: target?.[1] });
    }
  });

  app.post('/planning/rounds/:id/assign', needs('rounds:write'), async (request, reply) => {
    const roundId = (request.params as { id: string }).id;
    const date = dayOf(text(request, 'date', 10));
    try {
      const version = versionOf(text(request, 'version', 12));
      const courier = text(request, 'courier', 254);
      const vehicle = text(request, 'vehicle', 100);
      await deps.rounds.assign(roundId, courier || null, authorOf(request), version, vehicle || null);
      return done(reply, date, 'assigned', roundId);
    } catch (err) {
      return refused(request, reply, date, err, { from: roundId });
    }
  });
}
