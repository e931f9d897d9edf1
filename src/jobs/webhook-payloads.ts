/**
 * Job payloads carry a version so that a worker of another release can tell it cannot handle one.
 * Throwing lets graphile-worker retry later, when a worker that knows the version may be running.
 */
export function readPayload<K extends string>(payload: unknown, field: K): string {
  const p = payload as { v?: unknown } & Record<string, unknown>;
  if (p?.v !== 1) throw new Error(`unsupported payload version ${JSON.stringify(p?.v)}`);
  const value = p[field];
  if (typeof value !== 'string' || value === '') throw new Error(`payload.${field} is missing`);
  return value;
}
