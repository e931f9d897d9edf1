import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCollection } from '../scripts/generate-collection.ts';
import { generateSdks } from '../scripts/generate-sdks.ts';

const root = path.resolve(import.meta.dirname, '..');
const document = JSON.parse(readFileSync(path.join(root, 'openapi.json'), 'utf8'));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('what is generated from openapi.json', () => {
  it('the committed SDK files and collection are up to date (npm run sdks, npm run collection)', () => {
    for (const [file, text] of Object.entries({
      ...generateSdks(document),
      ...generateCollection(document),
    })) {
      expect(read(file), `${file} is stale: run npm run sdks / npm run collection`).toBe(text);
    }
  });

  it('the Postman collection has every operation, the bearer key and a fresh Idempotency-Key on creations', () => {
    const collection = JSON.parse(read('collections/dlv.postman_collection.json'));
    const requests = collection.item.flatMap((folder: any) => folder.item.map((item: any) => item.request));
    const operations = Object.entries<any>(document.paths).flatMap(([route, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${route}`),
    );
    const described = requests.map(
      (r: any) => `${r.method} /${r.url.path.map((s: string) => s.replace(/^:(\w+)$/, '{$1}')).join('/')}`,
    );
    expect(described.sort()).toEqual(operations.sort());
    expect(collection.auth.bearer[0].value).toBe('{{apiKey}}');
    const create = requests.find((r: any) => r.method === 'POST' && r.url.raw === '{{baseUrl}}/orders');
    expect(create.header).toContainEqual(
      expect.objectContaining({ key: 'Idempotency-Key', value: '{{$guid}}' }),
    );
    expect(JSON.parse(create.body.raw)).toHaveProperty('customer_email');
    const testMode = JSON.parse(read('collections/test-mode.postman_environment.json'));
    expect(testMode.values.map((v: any) => v.key)).toEqual(['baseUrl', 'apiKey']);
  });
});
