import { invalidField } from '../../errors.ts';

export type ServiceCode = 'express' | 'standard' | 'economy';

export interface ServiceInfo {
  code: ServiceCode;
  name: string;
  /** Business days after the start day (SPEC §7); 0 = delivered the day the order starts. */
  delayBusinessDays: number;
  /** Paris-time hour from which an order starts on the next business day. */
  cutoffHour: number;
}

/** Fastest first: this order also breaks price ties between rates. */
export const SERVICE_CODES: readonly ServiceCode[] = ['express', 'standard', 'economy'];

export const SERVICES: Record<ServiceCode, ServiceInfo> = {
  express: { code: 'express', name: 'Express — same day', delayBusinessDays: 0, cutoffHour: 12 },
  standard: { code: 'standard', name: 'Standard — next business day', delayBusinessDays: 1, cutoffHour: 16 },
  economy: { code: 'economy', name: 'Economy — 3 business days', delayBusinessDays: 3, cutoffHour: 16 },
};

export const DEFAULT_SERVICE: ServiceCode = 'standard';

export function isServiceCode(value: unknown): value is ServiceCode {
  return typeof value === 'string' && Object.hasOwn(SERVICES, value);
}

/** Case-insensitive and trimmed, so CLI and CSV input behave like the API. */
export function parseService(input: unknown): ServiceCode {
  const value = typeof input === 'string' ? input.trim().toLowerCase() : input;
  if (!isServiceCode(value)) {
    throw invalidField('service', `must be one of ${SERVICE_CODES.join(', ')}`);
  }
  return value;
}
