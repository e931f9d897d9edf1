import { randomBytes } from 'node:crypto';

/** A delivery attempt's id (`att_` + 16 hex, migration 0034): random, so its URLs cannot be walked. */
export const newAttemptId = (): string => `att_${randomBytes(8).toString('hex')}`;
