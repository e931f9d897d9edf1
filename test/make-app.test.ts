import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The Make custom app (connectors/make) is JSON that Make interprets; we cannot run Make, so every
 * request it would send is checked against the committed OpenAPI document instead: the path and
 * method exist, query and header names are declared, each body field is a property of the request
 * schema with a compatible type (and the schema's required fields are required in the module),
 * and each response mapping reads a property the response really has.
 */

type Json = Record<string, any>;
const read = (path: string): Json => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const openapi = read('../openapi.json');
const MAKE = '../connectors/make/';
const jsonFiles = (dir: string) =>
  readdirSync(new URL(`${MAKE}${dir}`, import.meta.url))
    .filter((f) => f.endsWith('.json'))
    .map((f) => `${dir}/${f}`);

interface MakeParameter {
  name: string;
  type: string;
  required?: boolean;
  multiple?: boolean;
  options?: { value: string }[];
}

interface MakeRequest {
  where: string;
  url: string;
  method?: string;
  qs?: Json;
  headers?: Json;
  body?: Json | string;
  response?: Json;
  pagination?: Json;
  /** The parameters `{{parameters.x}}` refers to. */
  parameters: MakeParameter[];
}

/** Every request of the app: the connection test, the webhook attach/detach, each module's call. */
function makeRequests(): MakeRequest[] {
  const requests: MakeRequest[] = [];
  for (const file of jsonFiles('connections')) {
    const connection = read(`${MAKE}${file}`);
    requests.push({ where: file, ...connection.communication, parameters: connection.parameters });
  }
  for (const file of jsonFiles('webhooks')) {
    const webhook = read(`${MAKE}${file}`);
    for (const step of ['attach', 'detach']) {
      requests.push({ where: `${file} ${step}`, ...webhook[step], parameters: webhook.parameters ?? [] });
    }
  }
  for (const file of jsonFiles('modules')) {
    const module = read(`${MAKE}${file}`);
    if (module.type === 'instant_trigger') continue; // receives deliveries; its webhook makes the calls
    for (const communication of [module.communication].flat()) {
      requests.push({
        where: file,
        ...communication,
        parameters: [...(module.parameters ?? []), ...module.expect],
      });
    }
  }
  return requests;
}

const BASE_PREFIX = /^\{\{(?:connection|parameters)\.baseUrl\}\}/;
const normalise = (path: string) => path.replace(/\{\{[^}]+\}\}|\{[^}]+\}/g, '{}');

function operationOf(request: MakeRequest): { path: string; method: string; op: Json } {
  const path = request.url.replace(BASE_PREFIX, '');
  const template = Object.keys(openapi.paths).find((p) => normalise(p) === normalise(path));
  if (!template) throw new Error(`${request.where}: no path ${path} in openapi.json`);
  const method = (request.method ?? 'GET').toLowerCase();
  const op = openapi.paths[template][method];
  if (!op) throw new Error(`${request.where}: no ${method.toUpperCase()} ${template} in openapi.json`);
  return { path: template, method, op };
}

function deref(schema: Json): Json {
  if (!schema?.$ref) return schema;
  return schema.$ref
    .split('/')
    .slice(1)
    .reduce((node: Json, key: string) => node[key], openapi);
}

/** The JSON types a schema admits and its enum, looking through anyOf. */
function typesOf(schema: Json): { types: Set<string>; enumValues?: unknown[] } {
  const s = deref(schema);
  const types = new Set<string>([s.type ?? []].flat());
  let enumValues = s.enum;
  for (const branch of s.anyOf ?? s.oneOf ?? []) {
    const inner = typesOf(branch);
    for (const t of inner.types) types.add(t);
    enumValues ??= inner.enumValues;
  }
  return { types, enumValues };
}

const MAKE_TYPES: Record<string, string> = {
  text: 'string',
  email: 'string',
  url: 'string',
  password: 'string',
  number: 'number',
  uinteger: 'integer',
  integer: 'integer',
  boolean: 'boolean',
  select: 'string',
};

/** Problems with sending `value` (a literal or a `{{parameters.x}}` / `{{webhook.url}}` reference) as `schema`. */
function valueProblems(where: string, value: unknown, schema: Json, parameters: MakeParameter[]): string[] {
  const { types, enumValues } = typesOf(schema);
  const reference = typeof value === 'string' ? /^\{\{parameters\.(\w+)\}\}$/.exec(value) : null;
  if (reference) {
    const parameter = parameters.find((p) => p.name === reference[1]);
    if (!parameter) return [`${where}: no parameter ${reference[1]}`];
    return parameterProblems(where, parameter, schema);
  }
  if (typeof value === 'string' && value.startsWith('{{')) {
    return value === '{{webhook.url}}' && types.has('string') ? [] : [`${where}: cannot check ${value}`];
  }
  const actual = Number.isInteger(value) ? 'integer' : typeof value;
  const ok = types.has(actual) || (actual === 'integer' && types.has('number'));
  const problems = ok ? [] : [`${where}: ${JSON.stringify(value)} is not ${[...types].join('|')}`];
  if (enumValues && !enumValues.includes(value))
    problems.push(`${where}: ${JSON.stringify(value)} not in enum`);
  return problems;
}

function parameterProblems(where: string, parameter: MakeParameter, schema: Json): string[] {
  const s = deref(schema);
  if (parameter.multiple) {
    if (!typesOf(s).types.has('array'))
      return [`${where}: ${parameter.name} is a list, the API wants one value`];
    return parameterProblems(where, { ...parameter, multiple: false }, s.items);
  }
  const { types, enumValues } = typesOf(s);
  const wanted = MAKE_TYPES[parameter.type];
  const problems: string[] = [];
  const compatible = wanted && (types.has(wanted) || (wanted === 'integer' && types.has('number')));
  if (!compatible)
    problems.push(`${where}: ${parameter.name} is ${parameter.type}, the API wants ${[...types].join('|')}`);
  if (wanted === 'number' && !types.has('number'))
    problems.push(`${where}: ${parameter.name} allows decimals`);
  for (const option of parameter.options ?? []) {
    if (enumValues && !enumValues.includes(option.value)) {
      problems.push(`${where}: ${parameter.name} offers ${option.value}, not in the API's enum`);
    }
  }
  return problems;
}

/** `{{parameters}}` / `{{omit(parameters, 'a', …)}}`: the parameters themselves are the body. */
function expandBody(request: MakeRequest): Json | undefined {
  if (typeof request.body !== 'string') return request.body;
  const match = /^\{\{(?:omit\(parameters((?:,\s*'\w+')*)\)|parameters)\}\}$/.exec(request.body);
  if (!match) throw new Error(`${request.where}: cannot read body ${request.body}`);
  const omitted = [...(match[1] ?? '').matchAll(/'(\w+)'/g)].map((m) => m[1]);
  return Object.fromEntries(
    request.parameters
      .filter((p) => !omitted.includes(p.name))
      .map((p) => [p.name, `{{parameters.${p.name}}}`]),
  );
}

function responseSchema(op: Json): Json {
  const ok = op.responses['200'] ?? op.responses['201'];
  return deref(ok?.content?.['application/json']?.schema ?? {});
}

const bodyReads = (mapping: unknown) =>
  [...JSON.stringify(mapping ?? {}).matchAll(/\bbody\.(\w+)/g)].map((m) => m[1]!);

/**
 * Every `body.x` a response mapping reads must be a property of the success response, and the
 * error mapping's of the one error body (components.schemas.Error).
 */
function responseProblems(request: MakeRequest, op: Json): string[] {
  const { error, ...success } = request.response ?? {};
  const missing = (keys: string[], schema: Json, what: string) =>
    keys
      .filter((key) => !schema.properties?.[key])
      .map((key) => `${request.where}: the ${what} has no ${key}`);
  return [
    ...missing(bodyReads([success, request.pagination]), responseSchema(op), 'response'),
    ...missing(bodyReads(error), openapi.components.schemas.Error, 'error body'),
  ];
}

function requestProblems(request: MakeRequest): string[] {
  let operation: ReturnType<typeof operationOf>;
  try {
    operation = operationOf(request);
  } catch (error) {
    return [(error as Error).message];
  }
  const { op } = operation;
  const where = `${request.where} ${operation.method.toUpperCase()} ${operation.path}`;
  const problems: string[] = [];
  const declared = (location: string) =>
    (op.parameters ?? []).filter((p: Json) => p.in === location).map((p: Json) => deref(p));

  const pathValues = [...request.url.matchAll(/\{\{[^}]+\}\}/g)]
    .map((m) => m[0])
    .filter((v) => !BASE_PREFIX.test(v));
  const pathNames = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  pathValues.forEach((value, i) => {
    const parameter = declared('path').find((p: Json) => p.name === pathNames[i]);
    if (value === '{{webhook.id}}') return; // the id the attach step kept
    problems.push(
      ...valueProblems(`${where} {${pathNames[i]}}`, value, parameter.schema, request.parameters),
    );
  });
  for (const [name, value] of Object.entries({ ...request.qs, ...request.pagination?.qs })) {
    const parameter = declared('query').find((p: Json) => p.name === name);
    if (!parameter) problems.push(`${where}: undeclared query parameter ${name}`);
    else if (!String(value).startsWith('{{body.')) {
      problems.push(...valueProblems(`${where} ?${name}`, value, parameter.schema, request.parameters));
    }
  }
  for (const name of Object.keys(request.headers ?? {})) {
    if (['authorization', 'accept'].includes(name.toLowerCase())) continue;
    if (!declared('header').some((p: Json) => p.name.toLowerCase() === name.toLowerCase())) {
      problems.push(`${where}: undeclared header ${name}`);
    }
  }
  const body = expandBody(request);
  const bodySchema = deref(op.requestBody?.content?.['application/json']?.schema ?? {});
  if (body && !op.requestBody) problems.push(`${where}: sends a body the operation does not take`);
  if (op.requestBody?.required && !body) problems.push(`${where}: sends no body`);
  if (body && op.requestBody) {
    for (const [field, value] of Object.entries(body)) {
      const property = bodySchema.properties?.[field];
      if (!property) problems.push(`${where}: unknown body field ${field}`);
      else problems.push(...valueProblems(`${where} ${field}`, value, property, request.parameters));
    }
    for (const field of bodySchema.required ?? []) {
      const value = body[field];
      const reference = typeof value === 'string' ? /^\{\{parameters\.(\w+)\}\}$/.exec(value) : null;
      const optional = reference && !request.parameters.find((p) => p.name === reference[1])?.required;
      if (value === undefined || optional)
        problems.push(`${where}: required body field ${field} may be missing`);
    }
  }
  return [...problems, ...responseProblems(request, op)];
}

describe('Make custom app', () => {
  const requests = makeRequests();

  it('makes the calls the README describes', () => {
    expect(
      requests.map((r) => `${(r.method ?? 'GET').toUpperCase()} ${r.url.replace(BASE_PREFIX, '')}`),
    ).toEqual([
      'GET /me',
      'POST /webhook-subscriptions',
      'DELETE /webhook-subscriptions/{{webhook.id}}',
      'POST /orders',
      'GET /orders/{{parameters.tracking_ref}}',
      'POST /rates',
      'GET /orders',
    ]);
  });

  it.each(requests.map((r) => [`${r.where}: ${r.method ?? 'GET'} ${r.url}`, r] as const))(
    'sends a request valid against openapi.json: %s',
    (_, request) => {
      expect(requestProblems(request)).toEqual([]);
    },
  );

  it("maps errors (in base.json, for every module) from the API's one error body", () => {
    const base = read(`${MAKE}base.json`);
    const reads = bodyReads(base.response.error);
    expect(reads).toEqual(['error', 'message']);
    expect(reads.filter((key) => !openapi.components.schemas.Error.properties[key])).toEqual([]);
    expect(base.baseUrl).toBe('{{connection.baseUrl}}');
  });

  it('catches a request the API would refuse', () => {
    const createOrder = requests.find((r) => r.where === 'modules/create-order.json')!;
    const withField = {
      ...createOrder,
      parameters: [...createOrder.parameters, { name: 'colour', type: 'text' }],
    };
    expect(requestProblems(withField)).toContainEqual(expect.stringMatching(/unknown body field colour/));
    const optionalEmail = {
      ...createOrder,
      parameters: createOrder.parameters.map((p) =>
        p.name === 'customer_email' ? { ...p, required: false } : p,
      ),
    };
    expect(requestProblems(optionalEmail)).toContainEqual(
      expect.stringMatching(/customer_email may be missing/),
    );
    const badService = {
      ...createOrder,
      parameters: createOrder.parameters.map((p) =>
        p.name === 'service' ? { ...p, options: [{ value: 'overnight' }] } : p,
      ),
    };
    expect(requestProblems(badService)).toContainEqual(expect.stringMatching(/offers overnight/));
    expect(requestProblems({ ...createOrder, method: 'PUT' })).toEqual([
      expect.stringMatching(/no PUT \/orders/),
    ]);
    expect(requestProblems({ ...createOrder, response: { output: '{{body.orders}}' } })).toContainEqual(
      expect.stringMatching(/response has no orders/),
    );
  });
});
