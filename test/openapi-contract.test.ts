/**
 * What client generators read in the OpenAPI document: examples that match their own schemas,
 * every failure an operation can answer (503 included), the headers it sends, and the servers entry.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, call, createBrandWithKey, type TestApp } from './support/app.ts';
import { type Schema, SchemaToolkit } from './support/fuzz/json-schema.ts';

let t: TestApp;
let doc: Schema;
let tk: SchemaToolkit;

const METHODS = ['get', 'post', 'patch', 'put', 'delete'];
const committed = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));

function operations(document: Schema): [string, Schema][] {
  return Object.entries<Schema>(document.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => [`${m.toUpperCase()} ${path}`, item[m]] as [string, Schema]),
  );
}

function examplesOf(media: Schema): unknown[] {
  const named = Object.values<Schema>(media.examples ?? {}).map((e) => e.value);
  return media.example === undefined ? named : [media.example, ...named];
}

beforeAll(async () => {
  t = await buildTestApp();
  doc = (await call(t.app, { method: 'GET', url: `${API}/openapi.json` })).data;
  tk = new SchemaToolkit(doc);
});
afterAll(() => t.close());

/** Each operation's request and JSON response examples that do not match their own schema. */
function exampleProblems(document: Schema, toolkit: SchemaToolkit): string[] {
  const problems: string[] = [];
  const tk = toolkit;
  for (const [name, op] of operations(document)) {
    const body = op.requestBody?.content?.['application/json'];
    if (body) {
      const examples = examplesOf(body);
      if (examples.length === 0) problems.push(`${name}: request body has no example`);
      const validate = tk.validator(body.schema, 'strict');
      for (const value of examples)
        if (!validate(value)) problems.push(`${name} request: ${JSON.stringify(tk.errorsOf(validate))}`);
    }
    for (const [status, raw] of Object.entries<Schema>(op.responses)) {
      const media = tk.deref(raw).content?.['application/json'];
      if (!media) continue;
      const examples = examplesOf(media);
      if (examples.length === 0) problems.push(`${name} ${status}: no example`);
      const validate = tk.validator(media.schema, 'response');
      for (const value of examples)
        if (!validate(value))
          problems.push(
            `${name} ${status}: ${JSON.stringify(tk.errorsOf(validate))} in ${JSON.stringify(value)}`,
          );
    }
  }
  return problems;
}

describe('OpenAPI document for client generators', () => {
  it('gives every request body and every JSON response examples that match their schema', () => {
    expect(exampleProblems(doc, tk)).toEqual([]);
  });

  // The operator's document (couriers, rounds, scans, proofs…) is read by the same generators.
  it('gives the operations document examples that match their schema too', () => {
    const ops = JSON.parse(readFileSync(new URL('../ops-openapi.json', import.meta.url), 'utf8'));
    expect(operations(ops).length).toBeGreaterThan(10);
    expect(exampleProblems(ops, new SchemaToolkit(ops))).toEqual([]);
  });

  it('documents 503 unavailable on every operation', () => {
    for (const [name, op] of operations(doc)) {
      expect(op.responses['503'], name).toBeDefined();
      const examples = examplesOf(tk.deref(op.responses['503']).content['application/json']);
      expect(
        examples.map((e) => (e as Schema).error),
        name,
      ).toEqual(['unavailable']);
    }
  });

  // The control-character refusals (#23 item 16) are a 400 a client can meet on any operation.
  it('says on every 400, served and committed, that control characters are refused', () => {
    for (const document of [doc, committed])
      for (const [name, op] of operations(document)) {
        const description = op.responses['400'] && tk.deref(op.responses['400']).description;
        if (description === undefined) continue;
        expect(description, name).toContain('NUL (`\\u0000`)');
        expect(description, name).toContain('control character (U+0000 to U+001F');
      }
  });

  it('lists the 422 codes an operation can answer, as an enum of `error`', () => {
    const create = doc.paths['/orders'].post.responses['422'];
    const codes = create.content['application/json'].schema.allOf[1].properties.error.enum;
    expect(codes).toEqual(
      expect.arrayContaining(['out_of_zone', 'invalid_address', 'unpriceable', 'idempotency_key_reused']),
    );
    for (const code of codes) expect(create.description).toContain(`\`${code}\``);
    const examples = examplesOf(create.content['application/json']).map((e) => (e as Schema).error);
    expect(new Set(examples)).toEqual(new Set(codes));
  });

  it('documents Idempotent-Replayed on POST /orders success and X-Request-Id on every response', () => {
    const create = doc.paths['/orders'].post;
    for (const [status, response] of Object.entries<Schema>(create.responses)) {
      if (status.startsWith('2')) expect(response.headers['Idempotent-Replayed'], status).toBeDefined();
    }
    for (const [name, op] of operations(doc))
      for (const [status, response] of Object.entries<Schema>(op.responses))
        expect(response.headers?.['X-Request-Id'], `${name} ${status}`).toBeDefined();
  });

  it('describes `service` as one enum, never as a union of constants', () => {
    const found: Schema[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'examples' || key === 'example') continue;
          if (key === 'service') found.push(value as Schema);
          walk(value);
        }
      }
    };
    walk(doc.paths);
    walk(doc.components);
    expect(found.length).toBeGreaterThan(3);
    for (const schema of found) {
      // Nullable inputs are `anyOf: [the enum, null]`; the enum itself is never split in constants.
      const values = schema.enum ?? schema.anyOf?.find((branch: Schema) => branch.enum)?.enum;
      expect(values, JSON.stringify(schema)).toEqual(['express', 'standard', 'economy']);
    }
  });

  it('describes /openapi.json itself as an operation', () => {
    const op = doc.paths['/openapi.json']?.get;
    expect(op?.operationId).toBe('getOpenApiDocument');
    expect(op.security).toEqual([]);
  });

  it('serves the running base URL and commits the production one', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: `http://127.0.0.1:3000${API}` })]);
    expect(committed.servers).toHaveLength(1);
    expect(committed.servers[0].url).toMatch(/^https:\/\/api\.[a-z0-9.-]+\.fr\/public\/v1$/);
  });

  it('lists the port it really listens on (PORT=0), or PUBLIC_BASE_URL when set', async () => {
    const listening = await buildTestApp({ config: { port: 0 } });
    const configured = await buildTestApp({ config: { publicBaseUrl: 'https://api.exemple.fr' } });
    try {
      const address = await listening.app.listen({ port: 0, host: '127.0.0.1' });
      const served = (await (await fetch(`${address}${API}/openapi.json`)).json()) as Schema;
      expect(served.servers.map((s: Schema) => s.url)).toEqual([`${address}${API}`]);
      const res = await call(configured.app, { method: 'GET', url: `${API}/openapi.json` });
      expect(res.data.servers.map((s: Schema) => s.url)).toEqual([`https://api.exemple.fr${API}`]);
    } finally {
      await listening.close();
      await configured.close();
    }
  });
});

describe('validation messages', () => {
  it('names the allowed values of an enum', async () => {
    const brand = await createBrandWithKey(t.deps);
    const res = await call(t.app, {
      method: 'POST',
      url: `${API}/orders`,
      headers: brand.headers,
      payload: { customer_email: 'jeanne@exemple.fr', service: 'teleport' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.data.details).toEqual([
      { field: 'service', message: 'must be one of express, standard, economy' },
    ]);
    expect(res.data.message).toContain('service must be one of express, standard, economy');
  });
});
