import { Type } from '@sinclair/typebox';
import type { RoundService } from '../../../domain/rounds/round-service.ts';
import type { TypedApp } from '../../shared/app-types.ts';
import { authorOf } from '../../shared/author.ts';
import {
  AssignBody,
  NewRoundBody,
  PlanBody,
  RoundIdParams,
  RoundSchema,
  RoundsQuery,
  StopsBody,
} from '../../shared/schemas/rounds.ts';
import { errorResponses } from '../../shared/schemas/shared.ts';

const RoundResponse = Type.Object({ ok: Type.Literal(true), round: RoundSchema });
const RoundsResponse = Type.Object({
  ok: Type.Literal(true),
  rounds: Type.Array(RoundSchema, { maxItems: 1000 }),
});
const TAGS = ['Couriers and rounds'];
const CHECKED_WHOLE =
  'Checked whole, nothing written on a refusal: a stop named twice is a 400; a reference or pickup that names nothing ' +
  'of the day, 422 `unknown_stops`; an order awaiting its address, delivered, returned or cancelled as a new stop, 422 `invalid_stops`; an order or pickup already on another round that day, 422 `already_on_round` ' +
  'naming it (`stops[i]`); a disabled courier, 422 `courier_disabled`.';

/** The day's rounds: planning by sort code, an external planner's rounds, the operator's edits. */
export function opsRoundRoutes(app: TypedApp, deps: { rounds: RoundService }): void {
  app.get(
    '/rounds',
    {
      config: { auth: { ops: 'rounds:read' } },
      schema: {
        operationId: 'opsListRounds',
        summary: "A day's rounds",
        tags: TAGS,
        querystring: RoundsQuery,
        response: { 200: RoundsResponse, ...errorResponses([400, 401]) },
      },
    },
    async (request) => ({
      ok: true as const,
      rounds: await deps.rounds.list(request.query.date, authorOf(request)),
    }),
  );

  app.get(
    '/rounds/:roundId',
    {
      config: { auth: { ops: 'rounds:read' } },
      schema: {
        operationId: 'opsGetRound',
        summary: 'A round and its stops',
        tags: TAGS,
        params: RoundIdParams,
        response: { 200: RoundResponse, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => ({
      ok: true as const,
      round: await deps.rounds.get(request.params.roundId, authorOf(request)),
    }),
  );

  app.post(
    '/rounds/plan',
    {
      config: { auth: { ops: 'rounds:write' } },
      schema: {
        operationId: 'opsPlanRounds',
        summary: "Plan (or re-plan) a day's rounds by sort code",
        description:
          "The day's planned pickups and the orders to deliver (`picked_up`/`in_transit` promised on or before the day, " +
          'and `failed_attempt` ones) grouped by sort code, one round per code, pickups first then deliveries by ' +
          'postcode and address. Re-planning keeps what the rounds hold (courier, order, stops already scanned) and ' +
          'adds the new stops at the end; cancelled orders leave. With `assign`, rounds without a courier get one ' +
          'of the enabled couriers, round-robin.',
        tags: TAGS,
        body: PlanBody,
        response: { 200: RoundsResponse, ...errorResponses([400, 401, 413, 415]) },
      },
    },
    async (request) => ({
      ok: true as const,
      rounds: await deps.rounds.plan(
        { date: request.body.date, assign: request.body.assign === true },
        authorOf(request),
      ),
    }),
  );

  app.post(
    '/rounds',
    {
      config: { auth: { ops: 'rounds:write' } },
      schema: {
        operationId: 'opsCreateRound',
        summary: "An external planner's round",
        description: CHECKED_WHOLE,
        tags: TAGS,
        body: NewRoundBody,
        response: { 201: RoundResponse, ...errorResponses([400, 401, 413, 415, 422]) },
      },
    },
    async (request, reply) => {
      const { date, name, courier_id, stops } = request.body;
      const round = await deps.rounds.create(
        { date, name, courierId: courier_id ?? null, stops },
        authorOf(request),
      );
      return reply.code(201).send({ ok: true as const, round });
    },
  );

  app.patch(
    '/rounds/:roundId',
    {
      config: { auth: { ops: 'rounds:write' } },
      schema: {
        operationId: 'opsAssignRound',
        summary: 'Give a round to a courier',
        description:
          'An unknown courier is a 400 naming `courier_id`; a disabled one, 422 `courier_disabled`.',
        tags: TAGS,
        params: RoundIdParams,
        body: AssignBody,
        response: { 200: RoundResponse, ...errorResponses([400, 401, 404, 413, 415, 422]) },
      },
    },
    async (request) => ({
      ok: true as const,
      round: await deps.rounds.assign(request.params.roundId, request.body.courier_id, authorOf(request)),
    }),
  );

  app.put(
    '/rounds/:roundId/stops',
    {
      config: { auth: { ops: 'rounds:write' } },
      schema: {
        operationId: 'opsSetRoundStops',
        summary: "Set a round's stops in the order they are made",
        description: `The same stops reordered, or another set. ${CHECKED_WHOLE}`,
        tags: TAGS,
        params: RoundIdParams,
        body: StopsBody,
        response: { 200: RoundResponse, ...errorResponses([400, 401, 404, 413, 415, 422]) },
      },
    },
    async (request) => ({
      ok: true as const,
      round: await deps.rounds.setStops(request.params.roundId, request.body.stops, authorOf(request)),
    }),
  );
}
