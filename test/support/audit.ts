import type { Author } from '../../src/domain/audit/actor.ts';

/** The author of the changes a test makes through the services directly, as `dlv` would name it. */
export const testOperator: Author = { actor: { kind: 'cli', label: 'vitest@test-host' }, origin: null };

/** A signed-in courier, as the courier app's routes name them. */
export const courierAuthor = (courierId: string): Author => ({
  actor: { kind: 'courier', courierId },
  origin: null,
});
