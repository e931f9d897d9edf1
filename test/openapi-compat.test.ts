import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { breakingChanges, changelogCovers } from '../scripts/openapi-compat.ts';

const root = path.resolve(import.meta.dirname, '..');
const released = JSON.parse(readFileSync(path.join(root, 'openapi/released/v1.json'), 'utf8'));
const current = JSON.parse(readFileSync(path.join(root, 'openapi.json'), 'utf8'));
const copy = () => structuredClone(released);
const createBody = (doc: any) => doc.paths['/orders'].post.requestBody.content['application/json'].schema;

describe('the OpenAPI compatibility check', () => {
  it('finds openapi.json compatible with the released contract', () => {
    expect(breakingChanges(released, current)).toEqual([]);
  });

  it('passes an added optional request field, path and response field', () => {
    const doc = copy();
    createBody(doc).properties.gift_message = { type: 'string', maxLength: 200 };
    doc.paths['/orders/{trackingRef}/notes'] = { get: { responses: { 200: { description: 'notes' } } } };
    doc.components.schemas.OrderSummary.properties.carbon_grams = { type: 'integer' };
    doc.components.schemas.Error.properties.error.enum.push('new_code');
    expect(breakingChanges(released, doc)).toEqual([]);
  });

  it('fails a removed response field, also behind a $ref', () => {
    const doc = copy();
    delete doc.components.schemas.OrderSummary.properties.tracking_url;
    const problems = breakingChanges(released, doc);
    expect(problems).toContain('GET /orders 200.orders[].tracking_url: removed');
  });

  it('fails a new required request field, a narrowed enum, a removed path and a tightened bound', () => {
    const doc = copy();
    createBody(doc).required.push('delivery_phone');
    doc.paths['/orders'].get.parameters.find((p: any) => p.name === 'status').schema.enum.pop();
    doc.paths['/orders'].get.parameters.find((p: any) => p.name === 'limit').schema.maximum = 100;
    delete doc.paths['/event-types'];
    expect(breakingChanges(released, doc)).toEqual(
      expect.arrayContaining([
        'POST /orders body.delivery_phone: newly required',
        'GET /orders parameter query:status: enum narrowed (cancelled removed)',
        'GET /orders parameter query:limit: maximum tightened (200 → 100)',
        '/event-types: path removed',
      ]),
    );
  });

  it('fails a removed operation, a new required parameter, a response type change and a dropped webhook event', () => {
    const doc = copy();
    delete doc.paths['/orders/{trackingRef}'].patch;
    doc.paths['/pickups'].get.parameters.push({
      in: 'query',
      name: 'zone',
      required: true,
      schema: { type: 'string' },
    });
    doc.components.schemas.OrderSummary.properties.quantity.type = 'string';
    delete doc.webhooks['order.labelled'];
    expect(breakingChanges(released, doc)).toEqual(
      expect.arrayContaining([
        'PATCH /orders/{trackingRef}: operation removed',
        'GET /pickups: new required parameter query:zone',
        'GET /orders 200.orders[].quantity: may now be of type string',
        'webhook order.labelled: event removed',
      ]),
    );
  });

  it('asks for a changelog entry when the document changed', () => {
    expect(
      changelogCovers('# C\n\n## [Unreleased]\n\n### Added\n- a field\n\n## [1.0.0] - 2026-11-29\n', '1.1.0'),
    ).toBe(true);
    expect(changelogCovers('# C\n\n## [Unreleased]\n\n## [1.0.0] - 2026-11-29\n- x\n', '1.1.0')).toBe(false);
    expect(changelogCovers('# C\n\n## [Unreleased]\n\n## [1.1.0] - 2026-12-01\n- x\n', '1.1.0')).toBe(true);
  });

  describe('as the CI step (npm run openapi:compat)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dlv-compat-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const compat = (file: string) =>
      promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'scripts/openapi-compat.ts', '--current', file],
        { cwd: root },
      ).then(
        (r) => ({ code: 0, out: r.stdout + r.stderr }),
        (e) => ({ code: e.code as number, out: String(e.stdout) + String(e.stderr) }),
      );

    it('exits 1 on a fixture with a removed field and 0 on one with an added optional field', async () => {
      const removed = copy();
      delete removed.components.schemas.Invoice.properties.number;
      writeFileSync(path.join(dir, 'removed.json'), JSON.stringify(removed));
      const added = copy();
      createBody(added).properties.gift_message = { type: 'string', maxLength: 200 };
      writeFileSync(path.join(dir, 'added.json'), JSON.stringify(added));
      const [bad, good] = await Promise.all([
        compat(path.join(dir, 'removed.json')),
        compat(path.join(dir, 'added.json')),
      ]);
      expect(bad.code).toBe(1);
      expect(bad.out).toMatch(/number: removed/);
      expect(good.code, good.out).toBe(0);
    }, 60_000);
  });
});
