import { AppError, type ErrorDetail } from '../../errors.ts';
import type { GeoPoint } from './location.ts';
import { isInIleDeFrance } from './region.ts';

/** A decimal with at most 6 decimals as JSON writes it (`48.856614`, `2.35`, `-0.5`; `1e-7` is not one). */
const SIX_DECIMALS = /^-?\d+(\.\d{1,6})?$/;

/**
 * The brand's point of a delivery (`delivery_lat`, `delivery_lng`; SPEC §11): WGS 84 decimal degrees,
 * 6 decimals at most, in Île-de-France, both or neither. `undefined`: neither given; `null`: both
 * null (a PATCH removing them). Each problem is a 400 naming its field, all of them at once.
 */
export function parseBrandPoint(lat: unknown, lng: unknown): GeoPoint | null | undefined {
  if (lat === undefined && lng === undefined) return undefined;
  if (lat === null && lng === null) return null;
  const details: ErrorDetail[] = [];
  const check = (field: string, value: unknown, bound: number): number | null => {
    if (value === undefined || value === null) {
      details.push({
        field,
        message: `is required with ${field === 'delivery_lat' ? 'delivery_lng' : 'delivery_lat'} (give both or neither)`,
      });
      return null;
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < -bound || value > bound) {
      details.push({
        field,
        message: `must be a number from -${bound} to ${bound} (WGS 84 decimal degrees)`,
      });
      return null;
    }
    if (!SIX_DECIMALS.test(String(value))) {
      details.push({ field, message: 'must have at most 6 decimals (about 10 cm)' });
      return null;
    }
    return value;
  };
  const la = check('delivery_lat', lat, 90);
  const ln = check('delivery_lng', lng, 180);
  if (la !== null && ln !== null && !isInIleDeFrance({ lat: la, lng: ln })) {
    const swapped = isInIleDeFrance({ lat: ln, lng: la });
    details.push({
      field: 'delivery_lat',
      message: swapped
        ? 'with delivery_lng is outside Île-de-France; they look swapped (latitude ~48–49, longitude ~1.5–3.5)'
        : 'with delivery_lng is outside Île-de-France (the delivery zone)',
    });
  }
  if (details.length === 1)
    throw new AppError('invalid_request', `${details[0]!.field}: ${details[0]!.message}`, details);
  if (details.length > 1)
    throw new AppError(
      'invalid_request',
      `Invalid request: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}.`,
      details,
    );
  return { lat: la!, lng: ln! };
}
