/**
 * Requests for one OpenAPI operation: valid ones generated from its schemas, and invalid ones that
 * break exactly one thing (authentication, one parameter, one body field, the body itself), each
 * with the statuses the API must answer.
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { documentAdmits, EXTREME_NUMBER_TEXTS, numericFieldsOf, withNumber } from './extreme-numbers.ts';
import { arbitraryFor, type Schema, type SchemaToolkit, typesOf, violationsFor } from './json-schema.ts';
import type { Operation, Parameter } from './openapi.ts';

/** Who the request claims to be: resolved to an Authorization header when it is sent. */
type AuthChoice =
  /** `scheme`: how the key is introduced, e.g. `Bearer ` (the scheme is case-insensitive). */
  | { kind: 'valid'; scheme?: string }
  | { kind: 'none' }
  | { kind: 'revoked' }
  | { kind: 'without-scope'; scope: string }
  | { kind: 'header'; value: string };

type BodyChoice =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType: string }
  | { kind: 'raw'; text: string; contentType: string | null }
  /** A JSON document of `size` bytes, built when sent (so a failure report stays readable). */
  | { kind: 'oversize'; size: number };

export interface RequestSpec {
  pathParams: Record<string, string>;
  /** Replaces the path built from `pathParams` (already encoded): for broken percent-encoding. */
  rawPath?: string;
  query: [string, string][];
  headers: Record<string, string>;
  body: BodyChoice;
  auth: AuthChoice;
}

export interface FuzzCase {
  /** `valid`: schema-valid; `invalid`: breaks one rule and must get one of `expect`. */
  kind: 'valid' | 'invalid';
  label: string;
  spec: RequestSpec;
  expect: number[];
}

/** Realistic values by location and name, mixed with the schema-driven ones. */
export type Hints = (
  location: 'path' | 'query' | 'header' | 'body',
  name: string,
  schema: Schema,
) => fc.Arbitrary<unknown> | undefined;

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/JSON; charset=UTF-8'];
const FOREIGN_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----fuzz',
  'application/octet-stream',
  'text/json',
  'application/javascript',
];
const MALFORMED_JSON = [
  '{',
  '{"a":',
  "{'customer_email': 'a@b.fr'}",
  '{"a":1,}',
  '{"a":1}}',
  '[1,2',
  'undefined',
  'NaN',
  '{"a":"\u0001"}',
  '{"a": 01}',
  '\u0000',
  '{"a":1} trailing',
  'true false',
];
const BAD_ENCODINGS = ['%', '%zz', '%E0%A4%A', '%FF%FE', 'a%2', '%C0%AF'];
const HEX = '0123456789abcdef';

/** Malformed Authorization headers: every one must be refused with 401, never a 500. */
function malformedAuthArb(validKey: () => string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      'Bearer',
      'Bearer ',
      'Basic YWxhZGRpbjpvcGVuc2VzYW1l',
      'Token dlv_',
      'dlv_',
      'Bearer dlv_',
      'Bearer null',
    ),
    fc.string({ unit: 'grapheme-ascii', maxLength: 80 }),
    fc.string({ unit: 'grapheme-ascii', maxLength: 80 }).map((s) => `Bearer ${s}`),
    fc.constant(null).map(() => `Bearer ${validKey()}x`),
    fc.constant(null).map(() => `Bearer ${validKey().slice(0, -1)}`),
    fc.constant(null).map(() => `Bearer ${validKey().toUpperCase()}`),
    fc.constant(null).map(() => validKey()),
    fc.integer({ min: 1, max: 5000 }).map((n) => `Bearer dlv_${'a'.repeat(n)}`),
  );
}

const unknownKeyArb = fc
  .array(fc.constantFrom(...HEX), { minLength: 64, maxLength: 64 })
  .map((chars) => `Bearer dlv_${chars.join('')}`);

/** A value as it travels in a URL or header: text. */
function asText(value: unknown): string {
  return typeof value === 'string'
    ? value
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
}

const headerSafe = (s: string) => /^[\x20-\x7e]*$/.test(s) && s.trim() === s;

/** A URL carries UTF-8: a lone surrogate has no encoding, so no client can send one. */
function urlSafe(s: string): boolean {
  try {
    encodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
}

export interface CaseContext {
  tk: SchemaToolkit;
  hints: Hints;
  /** The valid key's text, for malformed variants of it. */
  validKey: () => string;
  /** Scopes a key can lack, for 403 cases. */
  scopes: readonly string[];
}

/** Valid and invalid cases for `op`, half and half; `mutations` counts the ways of breaking it. */
export function caseArbitrary(
  op: Operation,
  ctx: CaseContext,
): { arbitrary: fc.Arbitrary<FuzzCase>; mutations: number } {
  const valid = validRequestArb(op, ctx);
  const validCases = valid.map((spec): FuzzCase => ({ kind: 'valid', label: 'valid', spec, expect: [] }));
  const mutations = invalidCaseArbs(op, ctx, valid);
  // An operation with no parameter, body or security (ping) has no invalid request: all valid.
  if (mutations.length === 0) return { arbitrary: validCases, mutations: 0 };
  return {
    arbitrary: fc.oneof(
      { weight: 1, arbitrary: validCases },
      { weight: 1, arbitrary: fc.oneof(...mutations) },
    ),
    mutations: mutations.length,
  };
}

/**
 * A value for one parameter or property. `realistic`: the hint alone where there is one (requests
 * meant to get past the business rules); otherwise the hint most of the time, else the schema's.
 */
function valueArb(
  ctx: CaseContext,
  location: 'path' | 'query' | 'header' | 'body',
  name: string,
  schema: Schema,
  realistic: boolean,
) {
  const hinted = ctx.hints(location, name, schema);
  if (hinted && realistic) return hinted;
  const generic = arbitraryFor(ctx.tk, schema, {
    hint: location === 'body' ? (prop, s) => ctx.hints('body', prop, s) : undefined,
    hintOnly: realistic,
  });
  return hinted ? fc.oneof({ weight: 4, arbitrary: hinted }, { weight: 1, arbitrary: generic }) : generic;
}

function paramsSchema(params: Parameter[]): Schema {
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
}

/** Schema-valid requests: two in three realistic (seeded values), one in three schema-driven. */
export function validRequestArb(op: Operation, ctx: CaseContext): fc.Arbitrary<RequestSpec> {
  return fc.oneof(
    { weight: 2, arbitrary: validRequestArbIn(op, ctx, true) },
    { weight: 1, arbitrary: validRequestArbIn(op, ctx, false) },
  );
}

function validRequestArbIn(op: Operation, ctx: CaseContext, realistic: boolean): fc.Arbitrary<RequestSpec> {
  const { tk } = ctx;
  const byIn = (where: Parameter['in']) => op.parameters.filter((p) => p.in === where);

  // Path parameters are never empty: `/orders/` is another route (the list), not an order.
  const pathParams = byIn('path');
  const pathValid = tk.validator(paramsSchema(pathParams), 'coercing');
  const pathArb = fc
    .record(
      Object.fromEntries(
        pathParams.map((p) => [
          p.name,
          valueArb(ctx, 'path', p.name, p.schema, realistic)
            .map(asText)
            .filter((s) => s.length > 0 && urlSafe(s)),
        ]),
      ),
    )
    .filter((values) => pathValid({ ...values }));

  /** Values for the parameters in `where`, as text the transport can carry, valid as a whole. */
  const paramsArb = (where: 'query' | 'header', safe: (s: string) => boolean) => {
    const params = byIn(where);
    const valid = tk.validator(paramsSchema(params), 'coercing');
    return fc
      .record(
        Object.fromEntries(
          params.map((p) => [
            p.name,
            valueArb(ctx, where, p.name, p.schema, realistic).map(asText).filter(safe),
          ]),
        ),
        { requiredKeys: params.filter((p) => p.required).map((p) => p.name) },
      )
      .filter((values) => valid({ ...values })) as fc.Arbitrary<Record<string, string>>;
  };
  const queryArb = paramsArb('query', urlSafe).map((values) => Object.entries(values) as [string, string][]);
  const headerArb = paramsArb('header', headerSafe);

  let bodyArb: fc.Arbitrary<BodyChoice> = fc.constant({ kind: 'none' });
  if (op.body?.schema) {
    const schema = op.body.schema;
    const bodyValid = tk.validator(schema, 'strict');
    const json = fc
      .tuple(valueArb(ctx, 'body', '', schema, realistic), fc.constantFrom(...JSON_TYPES))
      // Validated on a copy: Ajv applies defaults in place.
      .filter(([value]) => bodyValid(structuredClone(value)))
      .map(([value, contentType]): BodyChoice => ({ kind: 'json', value, contentType }));
    bodyArb = op.body.required ? json : fc.oneof(json, fc.constant<BodyChoice>({ kind: 'none' }));
  } else if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method)) {
    // No request body declared: nothing, or the empty object some clients send anyway.
    bodyArb = fc.constantFrom<BodyChoice>(
      { kind: 'none' },
      { kind: 'raw', text: '', contentType: 'application/json' },
      { kind: 'json', value: {}, contentType: 'application/json' },
    );
  }

  // An operation without security must ignore whatever Authorization it is sent.
  const authArb: fc.Arbitrary<AuthChoice> = op.secured
    ? fc.oneof(
        { weight: 6, arbitrary: fc.constant<AuthChoice>({ kind: 'valid' }) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom('bearer ', 'BEARER ', 'Bearer   ')
            .map((scheme): AuthChoice => ({ kind: 'valid', scheme })),
        },
      )
    : fc.oneof(
        fc.constant<AuthChoice>({ kind: 'none' }),
        malformedAuthArb(ctx.validKey).map((value): AuthChoice => ({ kind: 'header', value })),
      );

  // Sometimes the caller's own request id, sane or not: the one echoed must still match the document.
  const requestIdArb = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.uuid(),
        fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 200 }).filter(headerSafe),
      ),
    },
  );

  return fc
    .record({
      pathParams: pathArb as fc.Arbitrary<Record<string, string>>,
      query: queryArb,
      headers: headerArb,
      body: bodyArb,
      auth: authArb,
      requestId: requestIdArb,
    })
    .map(({ requestId, ...spec }) =>
      requestId === undefined ? spec : { ...spec, headers: { ...spec.headers, 'x-request-id': requestId } },
    );
}

type Mutation = fc.Arbitrary<FuzzCase>;

function invalidCaseArbs(op: Operation, ctx: CaseContext, valid: fc.Arbitrary<RequestSpec>): Mutation[] {
  const { tk } = ctx;
  const out: Mutation[] = [];
  const bodyValid = op.body?.schema ? tk.validator(op.body.schema, 'strict') : null;
  const mutate = <T>(
    label: string,
    expect: number[],
    arb: fc.Arbitrary<T>,
    apply: (spec: RequestSpec, v: T) => RequestSpec,
  ) =>
    out.push(
      fc
        .tuple(valid, arb)
        .map(
          ([spec, v]): FuzzCase => ({
            kind: 'invalid',
            label,
            expect,
            spec: apply(structuredClone(spec), v),
          }),
        )
        // A JSON body meant to break the schema really does (checked on a copy: Ajv fills in defaults).
        .filter(
          (c) =>
            !label.startsWith('body:') ||
            !(bodyValid && c.spec.body.kind === 'json' && bodyValid(structuredClone(c.spec.body.value))),
        ),
    );

  if (op.secured) {
    mutate('auth:missing', [401], fc.constant(null), (s) => ({ ...s, auth: { kind: 'none' } }));
    mutate('auth:malformed', [401], malformedAuthArb(ctx.validKey), (s, value) => ({
      ...s,
      auth: { kind: 'header', value },
    }));
    mutate('auth:unknown-key', [401], unknownKeyArb, (s, value) => ({
      ...s,
      auth: { kind: 'header', value },
    }));
    mutate('auth:revoked-key', [401], fc.constant(null), (s) => ({ ...s, auth: { kind: 'revoked' } }));
    if (op.requiredScope) {
      const scope = op.requiredScope;
      mutate('auth:insufficient-scope', [403], fc.constant(null), (s) => ({
        ...s,
        auth: { kind: 'without-scope', scope },
      }));
    }
  }

  for (const p of op.parameters) {
    if (p.in === 'cookie') continue;
    for (const violation of violationsFor(tk, p.schema, 'coercing')) {
      const arb = violation.arb.map(asText).filter((v) => (p.in === 'header' ? headerSafe(v) : urlSafe(v)));
      mutate(`${p.in}:${p.name}:${violation.label}`, [400], arb, (s, v) => setParam(s, p, v));
    }
    if (p.required && p.in !== 'path') {
      mutate(`${p.in}:${p.name}:missing`, [400], fc.constant(null), (s) => removeParam(s, p));
    }
    if (p.in === 'query' && !typesOf(tk, p.schema).has('array')) {
      mutate(
        `query:${p.name}:repeated`,
        [400],
        fc.tuple(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 })),
        (s, [a, b]) => ({
          ...s,
          query: [...s.query.filter(([k]) => k !== p.name), [p.name, a], [p.name, b]],
        }),
      );
    }
  }
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  if (pathParams.length > 0) {
    mutate(
      'path:bad-percent-encoding',
      [400],
      fc.tuple(fc.constantFrom(...pathParams), fc.constantFrom(...BAD_ENCODINGS)),
      (s, [p, bad]) => ({
        ...s,
        rawPath: buildPath(op.path, s.pathParams, { [p.name]: bad }),
      }),
    );
  }

  const schema = op.body?.schema ? tk.deref(op.body.schema) : null;
  if (schema) {
    const isValidBody = bodyValid!;
    const withBody = (s: RequestSpec): Record<string, unknown> => {
      const b = s.body;
      return b.kind === 'json' && b.value && typeof b.value === 'object' && !Array.isArray(b.value)
        ? { ...(b.value as object) }
        : {};
    };
    const json = (value: unknown): BodyChoice => ({ kind: 'json', value, contentType: 'application/json' });
    for (const [name, propSchema] of Object.entries<Schema>(schema.properties ?? {})) {
      for (const violation of violationsFor(tk, propSchema, 'strict')) {
        mutate(`body:${name}:${violation.label}`, [400], violation.arb, (s, v) => ({
          ...s,
          body: json({ ...withBody(s), [name]: v }),
        }));
      }
    }
    for (const name of (schema.required ?? []) as string[]) {
      mutate(`body:${name}:missing`, [400], fc.constant(null), (s) => {
        const value = withBody(s);
        delete value[name];
        return { ...s, body: json(value) };
      });
    }
    if (schema.additionalProperties === false) {
      const known = new Set(Object.keys(schema.properties ?? {}));
      const unknownName = fc
        .oneof(
          fc.constantFrom('id', 'status', 'price_eur', 'brand_id', 'tracking_ref', 'ok', 'Customer_Email'),
          fc.string({ minLength: 1, maxLength: 20 }),
        )
        .filter((n) => !known.has(n) && n !== '__proto__');
      mutate(
        'body:unknown-property',
        [400],
        fc.tuple(unknownName, fc.jsonValue({ maxDepth: 2 })),
        (s, [n, v]) => ({
          ...s,
          body: json({ ...withBody(s), [n]: v }),
        }),
      );
    }
    const notObjects = [[], [{}], 'text', 42, true, null].filter((v) => !isValidBody(v));
    if (notObjects.length > 0) {
      mutate('body:not-an-object', [400], fc.constantFrom(...notObjects), (s, v) => ({
        ...s,
        body: json(v),
      }));
    }
    if (!isValidBody({}))
      mutate('body:empty-object', [400], fc.constant(null), (s) => ({ ...s, body: json({}) }));
    if (op.body!.required) {
      mutate(
        'body:absent',
        [400],
        fc.constantFrom<string | null>(null, 'application/json'),
        (s, contentType) => ({
          ...s,
          body: contentType ? { kind: 'raw', text: '', contentType } : { kind: 'none' },
        }),
      );
    }
    mutate('body:prototype-pollution', [400], fc.constantFrom('__proto__', 'constructor'), (s, key) => ({
      ...s,
      body: {
        kind: 'raw',
        text: `{${JSON.stringify(withBody(s)).slice(1, -1)}${Object.keys(withBody(s)).length ? ',' : ''}"${key}":{"prototype":{"polluted":true},"polluted":true}}`,
        contentType: 'application/json',
      },
    }));
  }
  if (op.body || ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method)) {
    const malformed = fc
      .oneof(
        fc.constantFrom(...MALFORMED_JSON),
        fc.string({ minLength: 1, maxLength: 30 }).map((s) => `{${s}`),
      )
      .filter((text) => !parses(text));
    mutate('body:malformed-json', [400], malformed, (s, text) => ({
      ...s,
      body: { kind: 'raw', text, contentType: 'application/json' },
    }));
    mutate('body:unsupported-media-type', [415], fc.constantFrom(...FOREIGN_TYPES), (s, contentType) => ({
      ...s,
      body: {
        kind: 'raw',
        text: s.body.kind === 'json' ? JSON.stringify(s.body.value) : 'customer_email=a%40b.fr',
        contentType,
      },
    }));
    mutate('body:too-large', [413], fc.integer({ min: 64 * 1024 + 1, max: 256 * 1024 }), (s, size) => ({
      ...s,
      body: { kind: 'oversize', size },
    }));
  }
  out.push(...literalCaseArbs(op, ctx, valid));
  return out;
}

/** Number spellings JSON allows but JSON.stringify never writes: overflow, underflow, -0, 1.0. */
const NUMBER_LITERALS = [
  '1e400',
  '-1e400',
  '-0',
  '0.0',
  '1e-400',
  '1.0',
  '10E0',
  '2.50',
  '0.1e1',
  '1.0000000000000001',
  '123456789012345678901234567890',
];
/** Ways of writing an integer in a query string that a lax parser might take, or choke on. */
const INTEGER_TEXTS = [
  '1e2',
  ' 5',
  '5 ',
  '+5',
  '05',
  '5.0',
  '0x10',
  '0b11',
  '1_0',
  'Infinity',
  '-0',
  '\uff11',
  '5abc',
  '9007199254740993',
  '1e-7',
];

/**
 * Literal edge cases whose verdict depends on how JSON and query strings are parsed: each is
 * classified with the schema (as the server's Ajv sees it), then judged as valid or as invalid.
 */
function literalCaseArbs(op: Operation, ctx: CaseContext, valid: fc.Arbitrary<RequestSpec>): Mutation[] {
  const { tk } = ctx;
  const out: Mutation[] = [];
  const classify = (label: string, spec: RequestSpec, isValid: boolean): FuzzCase =>
    isValid ? { kind: 'valid', label, spec, expect: [] } : { kind: 'invalid', label, spec, expect: [400] };

  const schema = op.body?.schema ? tk.deref(op.body.schema) : null;
  if (schema && op.body?.schema) {
    const bodyValid = tk.validator(op.body.schema, 'strict');
    const numeric = Object.entries<Schema>(schema.properties ?? {})
      .filter(([, p]) => {
        const types = typesOf(tk, p);
        return types.has('number') || types.has('integer');
      })
      .map(([name]) => name);
    if (numeric.length > 0) {
      const marker = '"\\u0001literal"';
      out.push(
        fc
          .tuple(valid, fc.constantFrom(...numeric), fc.constantFrom(...NUMBER_LITERALS))
          .filter(([spec]) => spec.body.kind === 'json' && isPlainObject(spec.body.value))
          .map(([spec, name, literal]) => {
            const value = { ...((spec.body as { value: object }).value as object), [name]: '\u0001literal' };
            const text = JSON.stringify(value).replace(marker, literal);
            const body: BodyChoice = { kind: 'raw', text, contentType: 'application/json' };
            return classify(`body:${name}:literal`, { ...spec, body }, bodyValid(JSON.parse(text)));
          }),
      );
    }
  }

  // Every numeric input, body or parameter, at and beyond the limits a conversion can overflow on.
  const numericFields = numericFieldsOf(tk, op);
  if (numericFields.length > 0) {
    out.push(
      fc
        .tuple(valid, fc.constantFrom(...numericFields), fc.constantFrom(...EXTREME_NUMBER_TEXTS))
        .map(([spec, field, text]) => ({ field, changed: withNumber(spec, field, text) }))
        .filter(({ changed }) => changed !== null)
        .map(({ field, changed }) =>
          classify(
            `${field.in}:${field.name}:extreme-number`,
            changed!.spec,
            documentAdmits(tk, op, field, changed!.parsed),
          ),
        ),
    );
  }

  const query = op.parameters.filter((p) => p.in === 'query');
  const integers = query.filter((p) => typesOf(tk, p.schema).has('integer'));
  if (integers.length > 0) {
    const queryValid = tk.validator(paramsSchema(query), 'coercing');
    out.push(
      fc
        .tuple(valid, fc.constantFrom(...integers), fc.constantFrom(...INTEGER_TEXTS))
        .map(([spec, p, text]) => {
          const pairs: [string, string][] = [...spec.query.filter(([k]) => k !== p.name), [p.name, text]];
          return classify(
            `query:${p.name}:literal`,
            { ...spec, query: pairs },
            queryValid(Object.fromEntries(pairs)),
          );
        }),
    );
  }
  return out;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function setParam(s: RequestSpec, p: Parameter, value: string): RequestSpec {
  if (p.in === 'path') return { ...s, pathParams: { ...s.pathParams, [p.name]: value } };
  if (p.in === 'query') return { ...s, query: [...s.query.filter(([k]) => k !== p.name), [p.name, value]] };
  return { ...s, headers: { ...s.headers, [p.name]: value } };
}

function removeParam(s: RequestSpec, p: Parameter): RequestSpec {
  if (p.in === 'query') return { ...s, query: s.query.filter(([k]) => k !== p.name) };
  const headers = { ...s.headers };
  delete headers[p.name];
  return { ...s, headers };
}

function buildPath(
  template: string,
  values: Record<string, string>,
  raw: Record<string, string> = {},
): string {
  return template.replace(
    /\{([^}]+)\}/g,
    (_, name: string) => raw[name] ?? encodeURIComponent(values[name] ?? ''),
  );
}

export interface Credentials {
  valid: string;
  revoked: string;
  withoutScope: Record<string, string>;
}

/** The request `app.inject` sends for a spec. */
export function injectOptions(
  prefix: string,
  op: Operation,
  spec: RequestSpec,
  keys: Credentials,
): InjectOptions {
  const path = spec.rawPath ?? buildPath(op.path, spec.pathParams);
  const query = spec.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const headers: Record<string, string> = { ...spec.headers };
  const auth = spec.auth;
  if (auth.kind === 'valid') headers.authorization = `${auth.scheme ?? 'Bearer '}${keys.valid}`;
  else if (auth.kind === 'revoked') headers.authorization = `Bearer ${keys.revoked}`;
  else if (auth.kind === 'without-scope') headers.authorization = `Bearer ${keys.withoutScope[auth.scope]}`;
  else if (auth.kind === 'header') headers.authorization = auth.value;
  let payload: string | undefined;
  if (spec.body.kind === 'json') {
    payload = JSON.stringify(spec.body.value);
    headers['content-type'] = spec.body.contentType;
  } else if (spec.body.kind === 'raw') {
    payload = spec.body.text;
    if (spec.body.contentType) headers['content-type'] = spec.body.contentType;
  } else if (spec.body.kind === 'oversize') {
    payload = JSON.stringify({ padding: 'x'.repeat(spec.body.size - 14) });
    headers['content-type'] = 'application/json';
  }
  return {
    method: op.method as InjectOptions['method'],
    url: `${prefix}${path}${query ? `?${query}` : ''}`,
    headers,
    payload,
  };
}

/** A short, readable account of a case for failure messages. */
export function describeCase(c: FuzzCase, options: InjectOptions): string {
  const payload = typeof options.payload === 'string' ? options.payload : '';
  const shown = payload.length > 300 ? `${payload.slice(0, 300)}… (${payload.length} chars)` : payload;
  const headers = { ...(options.headers as Record<string, string>) };
  if (headers.authorization && headers.authorization.length > 40)
    headers.authorization = `${headers.authorization.slice(0, 40)}…`;
  return `${c.kind} case "${c.label}": ${options.method} ${options.url}\n  headers: ${JSON.stringify(headers)}\n  body: ${shown}`;
}
