/**
 * The routes before any search: each vehicle's fixed steps in their order (a round already under
 * way), then its breaks where they delay it least. A vehicle whose own commitments cannot be kept
 * (fixed stops past their windows, a break outside the shift) makes the problem invalid: the
 * planner must widen or drop them, the solver does not guess which.
 */
import { AppError, type ErrorDetail } from '../../errors.ts';
import { placeBreak } from './insertion.ts';
import type { Model } from './model.ts';
import type { Routes } from './routes.ts';

export function seedRoutes(R: Routes): void {
  const m: Model = R.m;
  const details: ErrorDetail[] = [];
  for (let v = 0; v < m.vehicleCount; v++) {
    const field = `vehicles[${v}]`;
    for (const node of m.vFixed[v]!) R.insertAt(v, R.len[v]! - 1, node);
    R.rebuild(v);
    if (!R.feasible[v]) {
      details.push({
        field: `${field}.fixedSteps`,
        message: 'cannot be kept in this order within their time windows, the shift and the capacity',
      });
      continue;
    }
    const breaks = Array.from(m.vBreaks[v]!).sort(
      (a, b) => m.twOpen[m.twFirst[a]!]! - m.twOpen[m.twFirst[b]!]! || a - b,
    );
    for (const b of breaks) {
      const pos = placeBreak(R, v, b);
      if (pos < 0) {
        const k = m.vBreaks[v]!.indexOf(b);
        details.push({
          field: `${field}.breaks[${k}]`,
          message: 'cannot be taken within the shift (beside the fixed steps)',
        });
        break;
      }
      R.insertAt(v, pos, b);
      R.rebuild(v);
    }
  }
  if (details.length === 0) return;
  const message =
    details.length === 1
      ? `${details[0]!.field}: ${details[0]!.message}`
      : `Invalid routing problem: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}.`;
  throw new AppError('invalid_request', message.slice(0, 1000), details.slice(0, 50));
}
