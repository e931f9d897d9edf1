import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ArrivalTimes } from '../../domain/arrivals/arrival-service.ts';
import { AppError } from '../../errors.ts';
import { courierOf } from '../shared/principal.ts';

/** What the courier's position routes use. */
interface CourierPositionRoutesContext {
  arrivals: Pick<ArrivalTimes, 'sharing' | 'setSharing' | 'recordPosition'>;
}

const COURIER_JSON = { auth: 'courier' as const };

/**
 * The courier's consent to share the phone's position during rounds (the app's toggle, off until
 * they turn it on) and the positions themselves, at most one a minute, kept 48 hours, used only to
 * estimate their round's arrival times (docs/arrival-times.md).
 */
export function courierPositionRoutes(area: FastifyInstance, deps: CourierPositionRoutesContext): void {
  area.get('/api/v1/position-sharing', { config: COURIER_JSON, schema: { hide: true } }, async (request) =>
    deps.arrivals.sharing(courierOf(request).courier.id),
  );

  area.put(
    '/api/v1/position-sharing',
    { config: COURIER_JSON, bodyLimit: 1024, schema: { hide: true } },
    async (request: FastifyRequest) => {
      const sharing = (request.body as { sharing?: unknown } | null)?.sharing;
      if (typeof sharing !== 'boolean')
        throw new AppError('invalid_request', 'sharing: must be true or false', [
          { field: 'sharing', message: 'must be true or false' },
        ]);
      return deps.arrivals.setSharing(courierOf(request).courier.id, sharing);
    },
  );

  area.post(
    '/api/v1/position',
    { config: COURIER_JSON, bodyLimit: 1024, schema: { hide: true } },
    async (request: FastifyRequest) =>
      deps.arrivals.recordPosition(courierOf(request).courier.id, request.body),
  );
}
