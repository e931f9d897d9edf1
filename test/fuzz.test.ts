/**
 * Fuzzing from the OpenAPI document. Every operation the served `openapi.json` declares gets
 * FUZZ_RUNS cases (default 1,000), half valid (generated from its schemas, with realistic
 * Île-de-France seeds so they reach pricing, storage and state changes) and half invalid (exactly
 * one thing broken). Every response must be declared by the document and match its schema, never
 * be a 5xx, and every invalid request must get its 400/401/403/404/413/415/422 in the error
 * envelope. FUZZ_SEED replays a run; on failure fast-check prints the seed and the shrunk case.
 */
import { writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS_PREFIX as OPS_API } from '../src/app.ts';
import { SCOPES } from '../src/domain/api-keys/keys.ts';
import { invoiceIdFor } from '../src/domain/invoices/invoice-service.ts';
import { ERROR_STATUS } from '../src/errors.ts';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import { API, buildTestApp, createBrandWithKey, TEST_PICKUP_ADDRESS, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import {
  type CaseContext,
  type Credentials,
  caseArbitrary,
  describeCase,
  type FuzzCase,
  type Hints,
  injectOptions,
  validRequestArb,
} from './support/fuzz/cases.ts';
import {
  accountLinksOf,
  CONTROL_TEXTS,
  formsOf,
  type HtmlForm,
  hasNul,
  refusedInForms,
  stringFieldsOf,
  withText,
} from './support/fuzz/control-characters.ts';
import {
  documentAdmits,
  EXTREME_NUMBER_TEXTS,
  numericFieldsOf,
  withNumber,
} from './support/fuzz/extreme-numbers.ts';
import { SchemaToolkit } from './support/fuzz/json-schema.ts';
import { type Operation, operationsOf, responseProblems } from './support/fuzz/openapi.ts';
import * as seeds from './support/fuzz/seeds.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
/** FUZZ_ONLY=createOrder,getOrder: fuzz only these operations (while investigating a failure). */
const ONLY = process.env.FUZZ_ONLY ? new Set(process.env.FUZZ_ONLY.split(',')) : null;

// A clock the seeding can move into the previous month (its orders make a second draft invoice).
let frozen: Date | null = null;
const OPS_TOKEN = 'fuzz-ops-token-0123456789abcdefgh';
const t = await buildTestApp({ clock: () => frozen ?? new Date(), config: { opsToken: OPS_TOKEN } });
const served = await t.app.inject({ method: 'GET', url: `${API}/openapi.json` });
const doc = served.json();
const tk = new SchemaToolkit(doc);
const operations = operationsOf(doc, tk);
const opsDoc = (
  await t.app.inject({
    method: 'GET',
    url: `${OPS_API}/openapi.json`,
    headers: { authorization: `Bearer ${OPS_TOKEN}` },
  })
).json();
const opsTk = new SchemaToolkit(opsDoc);
/**
 * Left out of the operations API's fuzzing: what a standing credential cannot call (signing in, and a
 * person's own session: their password, their second factor, signing out) and what changes every
 * brand's prices or invoices (the default grid, issuing a month) on the database other files share.
 * test/operators.test.ts covers them, on a scratch database.
 */
const NOT_FUZZED = new Set([
  'opsSignIn',
  'opsSignOut',
  'opsChoosePassword',
  'opsBeginEnrolment',
  'opsConfirmEnrolment',
  'opsRenewRecoveryCodes',
  'opsImportDefaultGrid',
  'opsIssueMonth',
]);
const opsOperations = operationsOf(opsDoc, opsTk).filter((op) => !NOT_FUZZED.has(op.id));

interface OperationStats {
  cases: number;
  valid: number;
  invalid: number;
  valid2xx: number;
  statuses: { valid: Record<number, number>; invalid: Record<number, number> };
  labels: Set<string>;
  ms: number;
}
const stats = new Map<string, OperationStats>();

let brand: TestBrand;
let keys: Credentials;
/** The same brand's test key (dlv_test_): simulation is for test orders only (docs/test-mode.md). */
let testKeys: Credentials;
const pools = {
  refs: [] as string[],
  testRefs: [] as string[],
  otherBrandRefs: [] as string[],
  invoiceIds: [] as string[],
  otherBrandInvoiceIds: [] as string[],
  orderCursors: [] as string[],
  invoiceCursors: [] as string[],
  subscriptionIds: [] as string[],
  otherBrandSubscriptionIds: [] as string[],
  pickupIds: [] as string[],
  otherBrandPickupIds: [] as string[],
};

beforeAll(async () => {
  brand = await createBrandWithKey(t.deps, {
    name: 'Fuzz brand',
    pickupAddress: '5 rue du Dépôt 93200 Saint-Denis',
  });
  const withoutScope: Record<string, string> = {};
  for (const scope of SCOPES) {
    const key = await t.deps.apiKeys.create(
      {
        brandId: brand.brandId,
        scopes: SCOPES.filter((s) => s !== scope),
      },
      testOperator,
    );
    withoutScope[scope] = key.key;
  }
  const revoked = await t.deps.apiKeys.create({ brandId: brand.brandId, scopes: [...SCOPES] }, testOperator);
  await t.deps.apiKeys.revoke(revoked.id, testOperator);
  keys = { valid: brand.key, revoked: revoked.key, withoutScope };
  const testKey = await t.deps.apiKeys.create(
    { brandId: brand.brandId, scopes: [...SCOPES], test: true },
    testOperator,
  );
  testKeys = { ...keys, valid: testKey.key };

  const context = { id: brand.brandId, defaultPickupAddress: '5 rue du Dépôt 93200 Saint-Denis' };
  const create = async (body: object) =>
    (await t.deps.orders.create(context, { customer_email: 'seed@example.com', ...body })).trackingRef;
  // Last month's orders: a second draft invoice, with lines. Kept out of the pool of refs, so
  // that cancelling them all cannot empty that month (whose draft would then rightly be gone).
  const now = new Date();
  frozen = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 9));
  for (const address of seeds.IDF_ADDRESSES.slice(0, 3)) await create({ delivery_address: address });
  frozen = null;
  // Orders in every state a brand can meet: editable, cancellable, and beyond.
  for (const address of seeds.IDF_ADDRESSES)
    pools.refs.push(await create({ delivery_address: address, reference: 'SEED' }));
  for (let i = 0; i < 8; i++) pools.refs.push(await create({ delivery_recipient: `Awaiting ${i}` }));
  const [cancelled, pickedUp, delivered, returned] = pools.refs.slice(0, 4);
  await t.deps.orders.cancel(brand.brandId, cancelled!);
  await t.deps.orders.setStatus(pickedUp!, 'picked_up', null, testOperator);
  for (const status of ['picked_up', 'in_transit', 'out_for_delivery', 'delivered'])
    await t.deps.orders.setStatus(delivered!, status, null, testOperator);
  for (const status of ['picked_up', 'in_transit', 'out_for_delivery', 'failed_attempt', 'returned'])
    await t.deps.orders.setStatus(returned!, status, 'seed', testOperator);

  // Another brand's order and invoice: always 404 for this brand, never 403.
  const other = await createBrandWithKey(t.deps, { name: 'Fuzz neighbour' });
  pools.otherBrandRefs.push(
    (
      await t.deps.orders.create(
        { id: other.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
        { customer_email: 'n@example.com', delivery_address: seeds.IDF_ADDRESSES[0]! },
      )
    ).trackingRef,
  );
  const period = (d: Date) => d.toISOString().slice(0, 7);
  pools.otherBrandInvoiceIds.push(invoiceIdFor(other.brandId, period(now)));
  const invoices = await t.deps.invoices.list(brand.brandId, { limit: 1 });
  pools.invoiceIds.push(...(await t.deps.invoices.list(brand.brandId, {})).invoices.map((i) => i.id));
  if (invoices.nextCursor) pools.invoiceCursors.push(invoices.nextCursor);
  for (const limit of [1, 2, 5, 10]) {
    for (const status of [undefined, 'pending', 'awaiting_address']) {
      const page = await t.deps.orders.listJson(brand.brandId, { limit, status });
      if (page.nextCursor) pools.orderCursors.push(page.nextCursor);
    }
  }
  // Webhook subscriptions (public address literals: no DNS), the brand's and a neighbour's.
  const subscribe = async (brandId: string) =>
    (
      await t.deps.subscriptions.create(brandId, {
        url: 'https://93.184.216.34/hooks/fuzz',
        event_types: ['order.created'],
      })
    ).subscription.id;
  for (let i = 0; i < 3; i++) pools.subscriptionIds.push(await subscribe(brand.brandId));
  pools.otherBrandSubscriptionIds.push(await subscribe(other.brandId));
  // The pickups the orders above joined, the brand's and the neighbour's.
  pools.pickupIds.push(...(await t.deps.pickups.list(brand.brandId, {})).map((p) => p.id));
  pools.otherBrandPickupIds.push(...(await t.deps.pickups.list(other.brandId, {})).map((p) => p.id));
  // Test orders (the test key's), for the simulation: each moved along by the valid cases.
  for (const address of seeds.IDF_ADDRESSES.slice(0, 6)) {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/orders`,
      headers: { authorization: `Bearer ${testKey.key}`, 'content-type': 'application/json' },
      payload: { customer_email: 'seed@example.com', delivery_address: address },
    });
    expect(res.statusCode, res.body).toBe(200);
    pools.testRefs.push(res.json().order.tracking_ref);
  }
  expect(pools.pickupIds.length).toBeGreaterThan(0);
  expect(pools.invoiceIds.length).toBeGreaterThanOrEqual(1);
  expect(pools.orderCursors.length).toBeGreaterThan(0);
});

afterAll(async () => {
  await t.close();
  const rows = [...stats].map(([id, s]) => ({
    operation: id,
    cases: s.cases,
    valid: s.valid,
    invalid: s.invalid,
    'case kinds': s.labels.size,
    'valid → status': histogram(s.statuses.valid),
    'invalid → status': histogram(s.statuses.invalid),
    seconds: (s.ms / 1000).toFixed(1),
  }));
  const total = rows.reduce((sum, r) => sum + r.cases, 0);
  console.log(
    `OpenAPI fuzzing: ${total} cases over ${rows.length} operations (FUZZ_RUNS=${RUNS}, FUZZ_SEED=${SEED})`,
  );
  console.table(rows);
  // FUZZ_REPORT=path.json keeps the figures (for a CI summary).
  if (process.env.FUZZ_REPORT) {
    await writeFile(
      process.env.FUZZ_REPORT,
      `${JSON.stringify({ runs: RUNS, seed: SEED, total, operations: rows }, null, 2)}\n`,
    );
  }
});

const histogram = (counts: Record<number, number>) =>
  Object.entries(counts)
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');

/** Orders created by the fuzzing join the pool of refs the later operations use. */
function harvest(res: LightMyRequestResponse): void {
  if (res.statusCode !== 200 || pools.refs.length >= 400) return;
  const ref = /^\{"ok":true,"trackingRef":"(DLV-[0-9A-Z]{10})"/.exec(res.body)?.[1];
  if (ref && !pools.refs.includes(ref)) pools.refs.push(ref);
}

/** Realistic values for the names this API uses; anything else is generated from its schema. */
/** The keys an operation is fuzzed with: the test key where only test keys may go. */
const credentialsFor = (op: Operation): Credentials => (op.id === 'simulateOrder' ? testKeys : keys);

function hintsFor(op: Operation): Hints {
  const refs = () =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...pools.refs) },
      { weight: 1, arbitrary: fc.constantFrom(...pools.otherBrandRefs) },
      { weight: 1, arbitrary: seeds.trackingRefLike },
    );
  return (location, name) => {
    if (location === 'path' && name === 'trackingRef')
      return op.id === 'simulateOrder'
        ? fc.oneof(
            { weight: 8, arbitrary: fc.constantFrom(...pools.testRefs) },
            { weight: 1, arbitrary: fc.constantFrom(...pools.refs) },
            { weight: 1, arbitrary: seeds.trackingRefLike },
          )
        : refs();
    // A month the statement can be asked for: mostly recent ones (the invalid cases mutate it).
    if (location === 'query' && name === 'period')
      return fc
        .tuple(fc.integer({ min: 2025, max: 2026 }), fc.integer({ min: 1, max: 12 }))
        .map(([y, m]) => `${y}-${String(m).padStart(2, '0')}`);
    if (location === 'path' && name === 'id') {
      return fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...pools.invoiceIds) },
        { weight: 1, arbitrary: fc.constantFrom(...pools.otherBrandInvoiceIds) },
        { weight: 1, arbitrary: seeds.invoiceIdLike },
      );
    }
    if (location === 'path' && name === 'subscriptionId') {
      return fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...pools.subscriptionIds) },
        { weight: 1, arbitrary: fc.constantFrom(...pools.otherBrandSubscriptionIds) },
        { weight: 1, arbitrary: seeds.subscriptionIdLike },
      );
    }
    if (location === 'path' && name === 'pickupId') {
      return fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...pools.pickupIds) },
        ...(pools.otherBrandPickupIds.length > 0
          ? [{ weight: 1, arbitrary: fc.constantFrom(...pools.otherBrandPickupIds) }]
          : []),
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'pck_0000000000000000',
            'PCK_0000000000000000',
            'pck_',
            'pck_zz00000000000000',
          ),
        },
      );
    }
    if (location === 'query' && name === 'cursor') {
      const real = op.path.startsWith('/invoices') ? pools.invoiceCursors : pools.orderCursors;
      return real.length > 0 ? fc.constantFrom(...real) : undefined;
    }
    if (location === 'header' && name === 'idempotency-key') return seeds.idempotencyKey;
    // Labels: mostly a few of the brand's orders, once each; sometimes a mix with others' and unknowns.
    if (location === 'body' && name === 'tracking_refs') {
      return fc.oneof(
        {
          weight: 6,
          arbitrary: fc.uniqueArray(fc.constantFrom(...pools.refs), { minLength: 1, maxLength: 3 }),
        },
        { weight: 2, arbitrary: fc.array(refs(), { minLength: 1, maxLength: 4 }) },
      );
    }
    if (location === 'body') return seeds.bodyHints[name];
    return undefined;
  };
}

function envelopeProblems(res: LightMyRequestResponse): string[] {
  const problems: string[] = [];
  const requestId = res.headers['x-request-id'];
  if (!requestId) problems.push('no x-request-id header');
  const json = String(res.headers['content-type'] ?? '').startsWith('application/json');
  if (json && /\n\s+at /.test(res.body)) problems.push('the body contains a stack trace');
  if (res.statusCode < 400) return problems;
  let body: any;
  try {
    body = JSON.parse(res.body);
  } catch {
    return [...problems, 'error body is not JSON'];
  }
  if (body?.ok !== false) problems.push('error envelope: ok is not false');
  const code = body?.error as keyof typeof ERROR_STATUS;
  if (ERROR_STATUS[code] !== res.statusCode)
    problems.push(`error code "${code}" does not go with status ${res.statusCode}`);
  if (typeof body?.message !== 'string' || body.message.length === 0)
    problems.push('error envelope: no message');
  if (body?.request_id !== requestId)
    problems.push(`request_id ${body?.request_id} ≠ x-request-id ${requestId}`);
  return problems;
}

/** A valid, authorised request to `op` that succeeds (2xx), without optional headers; undefined if none found. */
async function succeedingRequest(
  prefix: string,
  op: Operation,
  ctx: CaseContext,
  credentials: Credentials,
): Promise<FuzzCase['spec'] | undefined> {
  for (const spec of fc.sample(validRequestArb(op, ctx), { numRuns: 50, seed: SEED })) {
    // Without optional headers: an Idempotency-Key would replay the base request's answer.
    const required = new Set(op.parameters.filter((p) => p.in === 'header' && p.required).map((p) => p.name));
    const headers = Object.fromEntries(Object.entries(spec.headers).filter(([name]) => required.has(name)));
    const authorised = { ...spec, headers, auth: { kind: 'valid' as const } };
    const { statusCode } = await t.app.inject(injectOptions(prefix, op, authorised, credentials));
    if (statusCode >= 200 && statusCode < 300) return authorised;
  }
  return undefined;
}

/** Statuses a valid request must never get: the schema-valid request was authorised and well-formed. */
const NEVER_FOR_VALID = [401, 403, 413, 415, 429];

/**
 * A live key naming a `test_scenario` gets 403 test_mode_only (docs/test-mode.md), before the rest
 * of the request is judged: the document's schema cannot say "test keys only", so that refusal is
 * expected whatever else the case does.
 */
const refusedAsTestOnly = (c: FuzzCase, res: LightMyRequestResponse): boolean =>
  res.statusCode === 403 &&
  /"error":"test_mode_only"/.test(res.body) &&
  JSON.stringify(c.spec.body ?? '').includes('test_scenario');

function expectationProblems(c: FuzzCase, status: number, res?: LightMyRequestResponse): string[] {
  // Refused for the key's mode before the rest of the request is judged: valid or not, the same 403.
  if (res && refusedAsTestOnly(c, res)) return [];
  if (c.kind === 'valid')
    return NEVER_FOR_VALID.includes(status) ? [`valid request refused with ${status}`] : [];
  return c.expect.includes(status)
    ? []
    : [`invalid request got ${status}, expected ${c.expect.join(' or ')}`];
}

/** Sends the case and expects an answer that keeps the document's, the envelope's and the case's promises. */
async function expectAnswerKept(
  prefix: string,
  toolkit: SchemaToolkit,
  op: Operation,
  c: FuzzCase,
  credentials: Credentials,
): Promise<void> {
  const options = injectOptions(prefix, op, c.spec, credentials);
  const res = await t.app.inject(options);
  const problems = [
    ...responseProblems(toolkit, op, res),
    ...envelopeProblems(res),
    ...expectationProblems(c, res.statusCode, res),
  ];
  expect(problems, `${describeCase(c, options)}\n  → ${res.statusCode} ${res.body.slice(0, 300)}`).toEqual(
    [],
  );
}

describe('OpenAPI fuzzing', () => {
  it('finds operations in the served document', () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  operations.forEach((op, index) => {
    it.skipIf(ONLY !== null && !ONLY.has(op.id))(
      `${op.method} ${op.path} (${op.id})`,
      { timeout: 600_000 },
      async () => {
        const s: OperationStats = {
          cases: 0,
          valid: 0,
          invalid: 0,
          valid2xx: 0,
          statuses: { valid: {}, invalid: {} },
          labels: new Set(),
          ms: 0,
        };
        stats.set(op.id, s);
        const opKeys = credentialsFor(op);
        const ctx: CaseContext = { tk, hints: hintsFor(op), validKey: () => opKeys.valid, scopes: SCOPES };
        const { arbitrary, mutations } = caseArbitrary(op, ctx);
        const started = performance.now();
        await fc.assert(
          fc.asyncProperty(arbitrary, async (c) => {
            const options = injectOptions(API, op, c.spec, opKeys);
            const res = await t.app.inject(options);
            s.cases++;
            s[c.kind]++;
            s.statuses[c.kind][res.statusCode] = (s.statuses[c.kind][res.statusCode] ?? 0) + 1;
            harvest(res);
            s.labels.add(c.label);
            if (c.kind === 'valid' && res.statusCode < 300) s.valid2xx++;
            const problems = [
              ...responseProblems(tk, op, res),
              ...envelopeProblems(res),
              ...expectationProblems(c, res.statusCode, res),
            ];
            if (problems.length > 0) {
              throw new Error(
                `${problems.join('\n')}\n${describeCase(c, options)}\n  → ${res.statusCode} ${res.body.slice(0, 500)}`,
              );
            }
          }),
          { numRuns: RUNS, seed: SEED + index },
        );
        s.ms = performance.now() - started;
        expect(s.cases).toBeGreaterThanOrEqual(RUNS);
        if (mutations > 0) expect(s.invalid).toBeGreaterThan(0);
        // Valid requests must reach the handler's success path, not only its 404s and 422s.
        expect(s.valid2xx).toBeGreaterThan(0);
      },
    );
  });

  // The counterexamples fuzzing found, replayed as they were first seen: each once answered a
  // 500 or a body outside the error envelope.
  it('answers the requests that once broke it with a 400 in the envelope', async () => {
    const json = { ...brand.headers, 'content-type': 'application/json' };
    const ref = pools.refs[0]!;
    const cases = [
      {
        method: 'POST',
        url: `${API}/orders`,
        headers: json,
        payload: '{"customer_email":"a@a.aa","reference":"a\\u0000b"}',
      },
      {
        method: 'POST',
        url: `${API}/orders`,
        headers: json,
        payload: '{"customer_email":"a@a.aa","reference":"x\\udfffy"}',
      },
      {
        method: 'PATCH',
        url: `${API}/orders/${ref}`,
        headers: json,
        payload: '{"delivery_recipient":"\\u0000"}',
      },
      {
        method: 'POST',
        url: `${API}/rates`,
        headers: json,
        payload: '{"delivery_address":"1 rue \\ud800 75004 Paris"}',
      },
      { method: 'GET', url: `${API}/orders/%`, headers: brand.headers },
      { method: 'GET', url: `${API}/orders/%00`, headers: brand.headers },
      { method: 'GET', url: `${API}/orders?cursor=a%00b`, headers: brand.headers },
      { method: 'GET', url: `${API}/invoices/%E0%A4%A/pdf`, headers: brand.headers },
      { method: 'POST', url: `${API}/orders/${'x'.repeat(101)}/cancel`, headers: brand.headers },
    ] as const;
    for (const request of cases) {
      const res = await t.app.inject(request);
      expect(res.statusCode, `${request.method} ${request.url}`).toBe(400);
      expect(res.json()).toMatchObject({
        ok: false,
        error: 'invalid_request',
        request_id: res.headers['x-request-id'],
      });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  // The random cases meet each extreme number only now and then: here every numeric input of every
  // operation gets every one of them, on a request that succeeds as it is.
  it('answers every extreme number in every numeric input without a 5xx', { timeout: 120_000 }, async () => {
    const tried: string[] = [];
    // The random cases before this one cancel most of the pool's orders: the requests that must
    // succeed here get orders still editable, made for them.
    const context = { id: brand.brandId, defaultPickupAddress: '5 rue du Dépôt 93200 Saint-Denis' };
    const editable: string[] = [];
    for (const address of seeds.IDF_ADDRESSES.slice(0, 4))
      editable.push(
        (
          await t.deps.orders.create(context, {
            customer_email: 'seed@example.com',
            delivery_address: address,
          })
        ).trackingRef,
      );
    for (const op of operations) {
      const fields = numericFieldsOf(tk, op);
      if (fields.length === 0) continue;
      const pooled = hintsFor(op);
      const hints: Hints = (location, name, schema) =>
        location === 'path' && name === 'trackingRef'
          ? fc.constantFrom(...editable)
          : pooled(location, name, schema);
      const opKeys = credentialsFor(op);
      const ctx: CaseContext = { tk, hints, validKey: () => opKeys.valid, scopes: SCOPES };
      const base = await succeedingRequest(API, op, ctx, opKeys);
      expect(base, `a request to ${op.id} that succeeds`).toBeDefined();
      for (const field of fields) {
        for (const text of EXTREME_NUMBER_TEXTS) {
          const changed = withNumber(base!, field, text);
          if (!changed) continue;
          const admitted = documentAdmits(tk, op, field, changed.parsed);
          const c: FuzzCase = admitted
            ? { kind: 'valid', label: 'extreme-number', spec: changed.spec, expect: [] }
            : { kind: 'invalid', label: 'extreme-number', spec: changed.spec, expect: [400] };
          await expectAnswerKept(API, tk, op, c, opKeys);
          tried.push(`${op.id} ${field.in}:${field.name}`);
        }
      }
    }
    // The numeric inputs of the API today: a new one is picked up by the loop above on its own.
    for (const input of [
      'quoteRates body:quantity',
      'quoteRates body:unit_weight',
      'createOrder body:amount_eur',
      'createOrder body:quantity',
      'createOrder body:unit_weight',
      'listOrders query:limit',
      'listInvoices query:limit',
    ])
      expect(tried.filter((x) => x === input)).toHaveLength(EXTREME_NUMBER_TEXTS.length);
  });

  // NUL cannot be stored by PostgreSQL (a 500 once it reached a query); the other C0 controls are
  // answered as the document says. Every string input of every operation of both APIs gets each.
  it('refuses NUL in every text input of the public and operations APIs with a 400, never a 5xx for any C0 control', {
    timeout: 120_000,
  }, async () => {
    const opsKeys: Credentials = { valid: OPS_TOKEN, revoked: 'x', withoutScope: {} };
    const apis = [
      { prefix: API, ops: operations, toolkit: tk, credentials: keys },
      { prefix: OPS_API, ops: opsOperations, toolkit: opsTk, credentials: opsKeys },
    ];
    const tried = new Set<string>();
    for (const api of apis) {
      for (const op of api.ops) {
        const fields = stringFieldsOf(api.toolkit, op);
        if (fields.length === 0) continue;
        const credentials = api.prefix === API ? credentialsFor(op) : api.credentials;
        const ctx: CaseContext = {
          tk: api.toolkit,
          hints: hintsFor(op),
          validKey: () => credentials.valid,
          scopes: SCOPES,
        };
        // One that succeeds if there is one: the random fuzzing may have deleted every subscription,
        // and a NUL must get its 400 wherever the request would have gone.
        const base = (await succeedingRequest(api.prefix, op, ctx, credentials)) ?? {
          ...fc.sample(validRequestArb(op, ctx), { numRuns: 1, seed: SEED })[0]!,
          auth: { kind: 'valid' as const },
        };
        for (const field of fields) {
          for (const text of CONTROL_TEXTS) {
            const spec = withText(api.toolkit, op, base, field, text);
            if (!spec) continue;
            const admitted =
              !hasNul(text) &&
              documentAdmits(
                api.toolkit,
                op,
                field,
                field.in === 'body'
                  ? (spec.body as { value: unknown }).value
                  : field.in === 'query'
                    ? Object.fromEntries(spec.query)
                    : spec.pathParams,
              );
            const c: FuzzCase = admitted
              ? { kind: 'valid', label: 'control-character', spec, expect: [] }
              : { kind: 'invalid', label: 'control-character', spec, expect: [400] };
            await expectAnswerKept(api.prefix, api.toolkit, op, c, api.credentials);
            tried.add(`${api.prefix} ${op.id} ${field.in}:${field.name}`);
          }
        }
      }
    }
    // Today's text inputs, as a sample: a new one is picked up by the loops above on its own.
    for (const input of [
      `${API} createOrder body:reference`,
      `${API} listOrders query:cursor`,
      `${API} getOrder path:trackingRef`,
      `${API} createWebhookSubscription body:event_types`,
      `${OPS_API} opsSetOrderStatus body:note`,
    ])
      expect([...tried], input).toContain(input);
  });

  // The account area's pages, crawled as a signed-in owner and as a visitor: every field of every
  // form they show, and every query parameter they use, gets each C0 control. A field a person types
  // into gets the form again with its error; a hidden or chosen one (a token, a select) the form's
  // error or the area's 400 page; a query parameter the page does not use is ignored. Nothing of
  // the brand changes, and no page shows a control character back.
  it('answers NUL and C0 controls in every account form field and query parameter with the form redrawn with the field’s error, storing nothing', {
    timeout: 120_000,
  }, async () => {
    const owner = await createUser(t.deps, { brandId: brand.brandId });
    const signedIn = new Browser(t.app, '10.99.0.1');
    expect((await signedIn.signIn(owner.email, PASSWORD)).status).toBe(303);
    const visitor = new Browser(t.app, '10.99.0.2');
    const crawled: { browser: Browser; page: string; forms: HtmlForm[] }[] = [];
    const queryNames = new Set(['lang', 'token', 'cursor', 'q', 'status']);
    for (const [browser, start] of [
      [signedIn, ['/account']],
      [visitor, ['/account/sign-in', '/account/sign-up', '/account/forgot']],
    ] as const) {
      const queue: string[] = [...start];
      const seen = new Set<string>();
      while (queue.length > 0 && seen.size < 60) {
        const url = queue.shift()!;
        const path = url.split('?')[0]!;
        for (const [name] of new URL(url, 'http://x').searchParams) queryNames.add(name);
        // One page of each kind: an id in the path (a segment with a digit) stands for all its like.
        const shape = path.replace(/\/[^/]*\d[^/]*/g, '/:id');
        if (seen.has(shape) || /\/(pdf|sign-out)$|\/connectors\//.test(path)) continue;
        seen.add(shape);
        const res = await browser.get(url);
        if (res.status !== 200 || !String(res.headers['content-type']).startsWith('text/html')) continue;
        const forms = formsOf(path, res.body);
        for (const form of forms)
          if (form.method === 'GET') for (const [name] of form.fields) queryNames.add(name);
        crawled.push({ browser, page: path, forms });
        queue.push(...accountLinksOf(res.body));
      }
    }
    // No form shows a control character back (stored data the API fuzzing left may show elsewhere).
    const expectPage = (
      res: { status: number; headers: Record<string, unknown>; body: string },
      what: string,
    ) => {
      expect(String(res.headers['content-type']), what).toMatch(/^text\/html/);
      const shown = formsOf('', res.body).flatMap((f) => f.fields.map(([, value]) => value));
      expect(shown.filter(refusedInForms), what).toEqual([]);
    };
    const FIELD_ERROR = 'must not contain control characters (such as NUL)';
    const ERROR_PAGE = 'A field contains a character that cannot be used';
    const expectRefused = (
      res: { status: number; headers: Record<string, unknown>; body: string },
      what: string,
    ) => {
      expect(res.status, what).toBe(400);
      expectPage(res, what);
      expect(res.body.includes(FIELD_ERROR) || res.body.includes(ERROR_PAGE), what).toBe(true);
    };
    const expectFormError = (
      res: { status: number; headers: Record<string, unknown>; body: string },
      form: HtmlForm,
      what: string,
    ) => {
      expectRefused(res, what);
      expect(res.body, what).toContain(`action="${form.action}"`);
      expect(res.body, what).toContain(FIELD_ERROR);
    };
    const brandState = async () => {
      const { rows: tables } = await t.pool.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.columns
          WHERE column_name = 'brand_id' AND table_schema = current_schema() ORDER BY 1`,
      );
      const state: Record<string, unknown[]> = {
        brands: (await t.pool.query('SELECT * FROM brands WHERE id = $1', [brand.brandId])).rows,
      };
      for (const { table_name } of tables)
        state[table_name] = (
          await t.pool.query(`SELECT * FROM "${table_name}" t WHERE brand_id = $1 ORDER BY t::text`, [
            brand.brandId,
          ])
        ).rows;
      return state;
    };
    const before = await brandState();
    // A sample of CONTROL_TEXTS: every account request renders a page, the whole list would be slow.
    const FORM_TEXTS = ['\u0000', 'a\u0000b', '\u0001', '\u001b[31mred', '\u001f'];
    const tried = new Set<string>();
    const forms = new Map<string, { browser: Browser; form: HtmlForm }>();
    for (const { browser, forms: found } of crawled)
      for (const form of found)
        forms.set(
          `${form.method} ${form.action.replace(/\/[^/]*\d[^/]*/g, '/:id')} ${form.fields.map(([n]) => n).join(',')}`,
          {
            browser,
            form,
          },
        );
    for (const { browser, form } of forms.values()) {
      for (const [index, [name]] of form.fields.entries()) {
        for (const text of FORM_TEXTS) {
          expect(refusedInForms(text)).toBe(true);
          const fields = form.fields.map(([n, v], i): [string, string] => [n, i === index ? text : v]);
          const what = `${form.method} ${form.action} (on ${form.page}) with ${name}=${JSON.stringify(text)}`;
          if (form.method === 'POST') {
            const body: Record<string, string[]> = {};
            for (const [n, v] of fields) body[n] = [...(body[n] ?? []), v];
            const res = await browser.post(form.action, body);
            if (form.typed.includes(name)) expectFormError(res, form, what);
            else expectRefused(res, what);
          } else {
            const res = await browser.get(`${form.action}?${new URLSearchParams(fields)}`);
            if (form.typed.includes(name)) expectFormError(res, form, what);
            else expectRefused(res, what);
          }
          tried.add(`${form.method} ${form.action} ${name}`);
        }
      }
    }
    const answers = new Map<string, number>();
    for (const { browser, page } of crawled) {
      for (const name of queryNames) {
        for (const text of ['a\u0000b', '\u0001']) {
          const url = `${page}?${new URLSearchParams([[name, text]])}`;
          const res = await browser.get(url);
          // Refused where the page reads the parameter, ignored where it does not.
          if (res.status === 400) expectRefused(res, `GET ${url}`);
          else {
            expect(res.status, `GET ${url}`).toBe(200);
            expectPage(res, `GET ${url}`);
          }
          tried.add(`GET ${page}?${name}`);
          answers.set(`GET ${page}?${name}`, res.status);
        }
      }
    }
    // The inputs of the defect report, among those the crawl found.
    for (const input of [
      'GET /account/orders q',
      'GET /account/orders?q',
      'POST /account/company legal_name',
      'POST /account/forgot email',
      'POST /account/sign-in email',
      'POST /account/sign-up company',
    ])
      expect([...tried], input).toContain(input);
    // Parameters the pages read: the search box's error, or the 400 page where no form shows them.
    for (const read of [
      'GET /account/orders?q',
      'GET /account/orders?cursor',
      'GET /account/invoices?cursor',
    ])
      expect(answers.get(read), read).toBe(400);
    expect(answers.get('GET /account/keys?q'), 'a parameter the page does not use').toBe(200);
    expect(await brandState()).toEqual(before);
  });

  // The account inputs of the defect report, each once a 500 from PostgreSQL: the form's own error
  // (test/account-form-controls.test.ts has each form in both languages).
  it('answers a NUL in the account search, company name, sign-in and forgot forms with the form’s error, storing nothing', async () => {
    const owner = await createUser(t.deps, { brandId: brand.brandId });
    const user = new Browser(t.app, '10.99.1.1');
    expect((await user.signIn(owner.email, PASSWORD)).status).toBe(303);
    const legalName = async () =>
      (await t.pool.query('SELECT legal_name FROM brands WHERE id = $1', [brand.brandId])).rows[0].legal_name;
    const before = await legalName();
    const visitor = new Browser(t.app, '10.99.1.2');
    const pages = [
      await user.get('/account/orders?q=%00'),
      await user.submit('/account/company', '/account/company', {
        legal_name: 'Acme\u0000 SAS',
        billing_address: '1 rue de Rivoli 75001 Paris',
        siren: '',
        vat_number: '',
        pickup_address: '',
      }),
      await visitor.submit('/account/forgot', '/account/forgot', { email: 'a\u0000@example.com' }),
      await visitor.submit('/account/sign-in', '/account/sign-in', {
        email: 'a\u0000@example.com',
        password: 'x',
      }),
    ];
    for (const page of pages) {
      expect(page.status).toBe(400);
      expect(page.body).toContain('must not contain control characters');
      expect(page.body).not.toContain('Back to your account');
    }
    expect(await legalName()).toBe(before);
    // In the reader's language.
    const french = await new Browser(t.app, '10.99.1.3').submit(
      '/account/sign-in?lang=fr',
      '/account/sign-in',
      {
        email: '\u0000',
        password: 'x',
      },
    );
    expect(french.status).toBe(400);
    expect(french.body).toContain('E-mail : ne doit contenir aucun caractère de contrôle');
  });

  it.skipIf(ONLY !== null)(
    'covered every operation of the document, and the document has every public route',
    () => {
      for (const op of operations) expect(stats.get(op.id)?.cases ?? 0, op.id).toBeGreaterThanOrEqual(RUNS);
      const documented = new Set(
        operations.map((op) => `${op.method} ${API}${op.path.replace(/\{([^}]+)\}/g, ':$1')}`),
      );
      const routes = t.app.routeCatalog
        .filter((r) => r.url.startsWith(API) && !r.url.includes('/docs') && !r.url.endsWith('/openapi.json'))
        .map((r) => `${r.method} ${r.url}`);
      expect(routes.filter((r) => !documented.has(r))).toEqual([]);
    },
  );
});
