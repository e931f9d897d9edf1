import { Type } from '@sinclair/typebox';
import type { RoundService } from '../../../domain/rounds/round-service.ts';
import type { TypedApp } from '../../shared/app-types.ts';
import { authorOf } from '../../shared/author.ts';
import {
  AssignBody,
  MoveBody,
  NewRoundBody,
  PinBody,
  PlanBody,
  RoundIdParams,
  RoundSchema,
  RoundsQuery,
  StopsBody,
  UnplacedSchema,
} from '../../shared/schemas/rounds.ts';
import { errorResponses, INT32_MAX } from '../../shared/schemas/shared.ts';

const RoundResponse = Type.Object({ ok: Type.Literal(true), round: RoundSchema });
const RoundsResponse = Type.Object({
  ok: Type.Literal(true),
  rounds: Type.Array(RoundSchema, { maxItems: 1000 }),
});
const PlanResponse = Type.Object({
  ok: Type.Literal(true),
  rounds: Type.Array(RoundSchema, { maxItems: 1000 }),
  engine: Type.Optional(
    Type.String({
      maxLength: 40,
      description: 'With `optimise`: the optimiser that planned (`in-process`, `vroom`).',
    }),
  ),
  unplaced: Type.Optional(
    Type.Array(UnplacedSchema, {
      maxItems: 100000,
      description: 'With `optimise`: the stops on no round, each with the reason.',
    }),
  ),
  summary: Type.Optional(
    Type.Object(
      {
        rounds: Type.Integer({ format: 'int32', minimum: 0, maximum: INT32_MAX }),
        stops: Type.Integer({ format: 'int32', minimum: 0, maximum: INT32_MAX }),
        unplaced: Type.Integer({ format: 'int32', minimum: 0, maximum: INT32_MAX }),
        distance_m: Type.Integer({ format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
        duration_s: Type.Integer({ format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
      },
      { description: 'With `optimise`: the planned rounds’ totals (rounds already started left out).' },
    ),
  ),
});
const CONFLICT =
  'With `version` (the round’s, as last read), an edit made on an older version is a 409 `round_conflict` and nothing is written: read the round again.';
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
        summary: "Plan (or re-plan) a day's rounds, by sort code or optimised",
        description:
          "The day's planned pickups and the orders to deliver (`picked_up`/`in_transit` promised on or before the day, " +
          'and `failed_attempt` ones). By sort code (the default): one round per code, pickups first then deliveries by ' +
          'postcode and address; re-planning keeps what the rounds hold (courier, order, stops already scanned) and ' +
          'adds the new stops at the end; cancelled orders leave. With `assign`, rounds without a courier get one ' +
          'of the enabled couriers, round-robin. With `optimise` (docs/planning.md): one round per courier with a shift, ' +
          'within the vehicle’s capacity (parcels and kg), the shift and the pickups’ windows, in the order the optimiser ' +
          'drives them, each stop with its planned arrival and leg; rounds already started stay whole, pinned stops stay ' +
          'on their rounds; the stops it cannot place are listed in `unplaced` with the reason. Pins the optimiser cannot keep ' +
          '(beyond the vehicle’s capacity or shift) are a 400 and nothing is written.',
        tags: TAGS,
        body: PlanBody,
        response: { 200: PlanResponse, ...errorResponses([400, 401, 413, 415]) },
      },
    },
    async (request) => {
      const { date, assign, optimise } = request.body;
      if (optimise === true) {
        const day = await deps.rounds.planOptimised({ date }, authorOf(request));
        return {
          ok: true as const,
          rounds: day.rounds,
          engine: day.engine,
          unplaced: day.unplaced,
          summary: day.summary,
        };
      }
      return {
        ok: true as const,
        rounds: await deps.rounds.plan({ date, assign: assign === true }, authorOf(request)),
      };
    },
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
        summary: 'Give a round to a courier and a vehicle',
        description: `\`courier_id\`, \`vehicle_id\` or both (neither is a 400). An unknown courier is a 400 naming \`courier_id\`; a disabled one, 422 \`courier_disabled\`; an unknown or disabled vehicle, a 400 naming \`vehicle_id\`. ${CONFLICT}`,
        tags: TAGS,
        params: RoundIdParams,
        body: AssignBody,
        response: { 200: RoundResponse, ...errorResponses([400, 401, 404, 409, 413, 415, 422]) },
      },
    },
    async (request) => ({
      ok: true as const,
      round: await deps.rounds.assign(
        request.params.roundId,
        request.body.courier_id,
        authorOf(request),
        request.body.version,
        request.body.vehicle_id,
      ),
    }),
  );

  app.put(
    '/rounds/:roundId/stops',
    {
      config: { auth: { ops: 'rounds:write' } },
      schema: {
        operationId: 'opsSetRoundStops',
        summary: "Set a round's stops in the order they are made",
        description: `The same stops reordered, or another set; pinned stops stay pinned. ${CHECKED_WHOLE} ${CONFLICT}`,
        tags: TAGS,
        params: RoundIdParams,
        body: StopsBody,
        response: { 200: RoundResponse, ...errorResponses([400, 401, 404, 409, 413, 415, 422]) },
      },
    },
    async (request) => ({
      ok: true as const,
      round: await deps.rounds.setStops(
        request.params.roundId,
        request.body.stops,
        authorOf(request),
        request.body.version,
      ),
    }),
  );

  app.post(
    '/rounds/:roundId/pins',
    {
      config: { auth: { ops: 'rounds:write' } },
      schema: {
        operationId: 'opsPinRoundStop',
        summary: 'Pin (or unpin) a stop to its round',
        description:
          'A pinned stop stays on its round when the day is optimised again, in its order among the round’s pins. A stop not on ' +
          'the round is a 400 naming `stop`; a stale `version`, 409 `round_conflict` (nothing written).',
        tags: TAGS,
        params: RoundIdParams,
        body: PinBody,
        response: { 200: RoundResponse, ...errorResponses([400, 401, 404, 409, 413, 415]) },
      },
    },
    async (request) => ({
      ok: true as const,
      round: await deps.rounds.pin(request.params.roundId, request.body, authorOf(request)),
    }),
  );

  app.post(
    '/rounds/:roundId/moves',
    {
      config: { auth: { ops: 'rounds:write' } },
      schema: {
        operationId: 'opsMoveRoundStop',
        summary: 'Move a stop to another round of the day',
        description:
          'At `position` on the other round (default: last); it keeps its pin, loses its planned time (until the day is optimised again). ' +
          'Both rounds’ versions are checked: either stale is a 409 `round_conflict` naming `version` or `to_version`, nothing written. ' +
          'A stop not on this round is a 400 naming `stop`; a round of another day or a position past the end, a 400 naming it.',
        tags: TAGS,
        params: RoundIdParams,
        body: MoveBody,
        response: {
          200: Type.Object({ ok: Type.Literal(true), from: RoundSchema, to: RoundSchema }),
          ...errorResponses([400, 401, 404, 409, 413, 415]),
        },
      },
    },
    async (request) => {
      const b = request.body;
      const moved = await deps.rounds.move(
        request.params.roundId,
        {
          stop: b.stop,
          toRoundId: b.to_round_id,
          position: b.position,
          version: b.version,
          toVersion: b.to_version,
        },
        authorOf(request),
      );
      return { ok: true as const, ...moved };
    },
  );
}
