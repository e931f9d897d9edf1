import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeysRepository } from '../src/db/repositories/api-keys-repository.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe("the operator's keys in the brand's key history", () => {
  it('records a creation and one revocation (a second revoke changes nothing), with no user', async () => {
    const brand = await t.deps.brands.create({ name: 'History brand' }, testOperator);
    const key = await t.deps.apiKeys.create({ brandId: brand.id, scopes: 'orders:read' }, testOperator);
    const revoked = await t.deps.apiKeys.revoke(key.id, testOperator);
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    expect(revoked).not.toHaveProperty('justRevoked');
    await t.deps.apiKeys.revoke(key.id, testOperator);

    const events = await apiKeysRepository(t.pool).listEvents(brand.id, 10);
    expect(events.map((e) => [e.keyId, e.action, e.userEmail, e.ip])).toEqual([
      [key.id, 'revoked', null, null],
      [key.id, 'created', null, null],
    ]);
  });

  it('writes nothing when the creation is refused', async () => {
    const brand = await t.deps.brands.create({ name: 'Refused brand' }, testOperator);
    await expect(t.deps.apiKeys.create({ brandId: brand.id, scopes: 'nope' }, testOperator)).rejects.toThrow(
      /scope/,
    );
    expect(await apiKeysRepository(t.pool).listEvents(brand.id, 10)).toEqual([]);
  });
});
