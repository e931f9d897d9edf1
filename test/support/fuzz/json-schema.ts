/**
 * A small JSON Schema (OpenAPI 3.1 dialect) toolkit for the fuzz harness: `$ref` resolution against
 * the document, Ajv validators with the server's options, an arbitrary of valid values and the
 * ways a value can break a schema.
 */
import AjvModule2020 from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';

export type Schema = Record<string, any>;

// ajv and ajv-formats are CommonJS; under ESM their export sits on `default`.
const Ajv2020 = ((AjvModule2020 as any).default ?? AjvModule2020) as typeof AjvModule2020;
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof addFormatsModule;

const DOC_ID = 'https://fuzz.invalid/openapi.json';

/** One Ajv per mode, loaded with the OpenAPI document so `#/components/...` refs resolve. */
export class SchemaToolkit {
  private readonly ajv: Record<'strict' | 'coercing' | 'response', InstanceType<typeof Ajv2020>>;
  private readonly cache = new Map<string, (value: unknown) => boolean>();

  constructor(readonly doc: Schema) {
    const make = (coerceTypes: boolean) => {
      const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes, validateFormats: true });
      // The same formats the server checks requests with, plus the ones responses declare.
      addFormats(ajv, ['email', 'date', 'date-time', 'uri', 'int32', 'int64', 'float', 'double']);
      ajv.addFormat('binary', true);
      ajv.addSchema({ $id: DOC_ID, components: doc.components ?? {} });
      return ajv;
    };
    this.ajv = { strict: make(false), coercing: make(true), response: make(false) };
  }

  /** Follows local `$ref`s (`#/components/schemas/X`) to the schema they name. */
  deref(schema: Schema): Schema {
    let current = schema;
    for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
      if (hops > 20) throw new Error(`$ref loop at ${schema.$ref}`);
      const { $ref, ...siblings } = current;
      const target = this.pointer($ref);
      current = Object.keys(siblings).length > 0 ? { ...target, ...siblings } : target;
    }
    return current;
  }

  pointer(ref: string): Schema {
    if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
    let node: any = this.doc;
    for (const raw of ref.slice(2).split('/')) {
      node = node?.[raw.replaceAll('~1', '/').replaceAll('~0', '~')];
    }
    if (node === undefined) throw new Error(`unresolvable $ref ${ref}`);
    return node;
  }

  /** A validator for `schema`: `strict` for JSON bodies, `coercing` for query, path and headers. */
  validator(schema: Schema, mode: 'strict' | 'coercing' | 'response'): (value: unknown) => boolean {
    const key = `${mode}:${JSON.stringify(schema)}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const compiled = this.ajv[mode].compile(rebase(schema) as Schema);
      validate = (value: unknown) => compiled(value) as boolean;
      this.lastErrors.set(validate, () => compiled.errors);
      this.cache.set(key, validate);
    }
    return validate;
  }

  private readonly lastErrors = new WeakMap<object, () => unknown>();

  /** Ajv's errors from the last call of a validator made by `validator()`. */
  errorsOf(validate: (value: unknown) => boolean): unknown {
    return this.lastErrors.get(validate)?.();
  }
}

/** Points `#/...` refs at the document loaded into Ajv (the schema compiled is only a fragment of it). */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? DOC_ID + value : rebase(value);
  }
  return out;
}

/** The JSON types a schema admits at its top level (branches of anyOf/oneOf included). */
export function typesOf(tk: SchemaToolkit, schema: Schema): Set<string> {
  const s = tk.deref(schema);
  const types = new Set<string>();
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])])
    for (const t of typesOf(tk, branch)) types.add(t);
  if (s.type) for (const t of [s.type].flat()) types.add(t);
  if (s.enum) for (const v of s.enum) types.add(v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if ('const' in s) types.add(s.const === null ? 'null' : typeof s.const);
  return types;
}

/** Code points, as JSON Schema's minLength/maxLength count them. */
const codePoints = (s: string): number => [...s].length;

/** Strings that have broken services before: NUL, lone surrogates, RTL marks, injections, whitespace. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\t\n',
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udfffy',
  '\u202eevil',
  '\ufeffBOM',
  'e\u0301',
  '👩‍👩‍👧‍👦',
  "'; DROP TABLE orders; --",
  '" OR 1=1 --',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4j-style lookup, sent as plain text on purpose
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '%s%s%n',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e309',
  '   padded   ',
];

type Hint = (name: string, schema: Schema) => fc.Arbitrary<unknown> | undefined;

interface GenOptions {
  /** Realistic values for a property or parameter, by name, mixed with the schema-driven ones. */
  hint?: Hint;
  /** Use the hint alone where there is one (requests meant to succeed), not mixed. */
  hintOnly?: boolean;
}

/** An arbitrary of values valid against `schema` (best effort: callers filter through Ajv). */
export function arbitraryFor(
  tk: SchemaToolkit,
  schema: Schema,
  options: GenOptions = {},
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = tk.deref(schema);
  if (depth > 8) return fc.constant(null);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches)) {
    const { anyOf: _a, oneOf: _o, ...siblings } = s;
    return fc.oneof(
      ...branches.map((b: Schema) => arbitraryFor(tk, { ...siblings, ...tk.deref(b) }, options, depth + 1)),
    );
  }
  if (Array.isArray(s.allOf)) return arbitraryFor(tk, mergeAllOf(tk, s), options, depth + 1);
  const types: string[] = s.type ? [s.type].flat() : s.properties ? ['object'] : [];
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  if (types.length > 1)
    return fc.oneof(...types.map((type) => arbitraryFor(tk, { ...s, type }, options, depth + 1)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArb(s);
    case 'number':
      return numberArb(s);
    case 'string':
      return stringArb(s);
    case 'array':
      return fc.array(arbitraryFor(tk, s.items ?? {}, options, depth + 1), {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? 5, (s.minItems ?? 0) + 5),
      });
    case 'object':
      return objectArb(tk, s, options, depth);
    default:
      throw new Error(`unsupported type ${types[0]}`);
  }
}

function mergeAllOf(tk: SchemaToolkit, s: Schema): Schema {
  const { allOf, ...rest } = s;
  const merged: Schema = {
    ...rest,
    type: 'object',
    properties: { ...(rest.properties ?? {}) },
    required: [...(rest.required ?? [])],
  };
  for (const part of allOf.map((p: Schema) => tk.deref(p))) {
    Object.assign(merged.properties, part.properties ?? {});
    merged.required.push(...(part.required ?? []));
    if (part.additionalProperties === false) merged.additionalProperties = false;
  }
  return merged;
}

function bounds(s: Schema, integer: boolean): { min: number; max: number } {
  const step = integer ? 1 : Number.EPSILON;
  let min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + step : undefined);
  let max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - step : undefined);
  min ??= integer ? -(2 ** 31) : -1e9;
  max ??= integer ? 2 ** 31 - 1 : 1e9;
  return { min, max };
}

function integerArb(s: Schema): fc.Arbitrary<number> {
  const { min, max } = bounds(s, true);
  const lo = Math.ceil(min);
  const hi = Math.floor(max);
  // The edges are where off-by-one errors live.
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: lo, max: hi }) },
    { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
  );
}

function numberArb(s: Schema): fc.Arbitrary<number> {
  const { min, max } = bounds(s, false);
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .double({ min, max, noNaN: true, noDefaultInfinity: true })
        .map((n) => (Object.is(n, -0) ? 0 : n)),
    },
    // Money-like values (at most 2 decimals), the common case.
    {
      weight: 3,
      arbitrary: fc
        .integer({ min: Math.ceil(Math.max(min, -1e7) * 100), max: Math.floor(Math.min(max, 1e7) * 100) })
        .map((cents) => cents / 100),
    },
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
  );
}

function stringArb(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 200;
  const fits = (v: string) => codePoints(v) >= min && codePoints(v) <= max;
  if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern, 'u')).filter(fits);
  switch (s.format) {
    case 'email':
      return fc
        .oneof(
          fc.constantFrom('jane@example.com', 'jean.dupont+test@orange.fr', 'x@y.io', 'Élodie@exemple.fr'),
          fc.emailAddress(),
        )
        .filter(fits);
    case 'date':
      return fc
        .date({ min: new Date('1970-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return fc
        .date({ min: new Date('1970-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'uri':
      return fc.webUrl().filter(fits);
  }
  const sized = (unit: 'grapheme' | 'grapheme-ascii' | 'binary') =>
    fc.string({ unit, minLength: min, maxLength: max, size: 'medium' }).filter(fits);
  return fc.oneof(
    { weight: 3, arbitrary: sized('grapheme-ascii') },
    { weight: 2, arbitrary: sized('grapheme') },
    { weight: 2, arbitrary: sized('binary') },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS).filter(fits) },
    // Right at the limit: the longest value the schema admits.
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: 'grapheme-composite', minLength: Math.max(min, max - 3), maxLength: max })
        .filter(fits),
    },
  );
}

function objectArb(tk: SchemaToolkit, s: Schema, options: GenOptions, depth: number): fc.Arbitrary<unknown> {
  const properties: Record<string, Schema> = s.properties ?? {};
  const required: string[] = s.required ?? [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, propSchema] of Object.entries(properties)) {
    const hinted = options.hint?.(name, propSchema);
    if (hinted && options.hintOnly) {
      model[name] = hinted;
      continue;
    }
    const generic = arbitraryFor(tk, propSchema, options, depth + 1);
    model[name] = hinted
      ? fc.oneof({ weight: 4, arbitrary: hinted }, { weight: 1, arbitrary: generic })
      : generic;
  }
  let arb: fc.Arbitrary<Record<string, unknown>> = fc.record(model, { requiredKeys: required });
  const minProperties = s.minProperties ?? 0;
  if (minProperties > 0) arb = arb.filter((o) => Object.keys(o).length >= minProperties);
  return arb;
}

/** A way of breaking one value, and the arbitrary of values broken that way. */
export interface Violation {
  label: string;
  arb: fc.Arbitrary<unknown>;
}

const WRONG_TYPE_CANDIDATES: unknown[] = [
  true,
  false,
  0,
  42,
  1.5,
  -7,
  'text',
  '',
  [],
  ['a'],
  {},
  { a: 1 },
  null,
];

/**
 * The ways a value can violate `schema`, each checked against it with Ajv in `mode`, so that every
 * value an arbitrary returns is really invalid (a harness that "mutates" into a valid value would
 * otherwise report the server's correct 200 as a failure, or worse, hide a missing check).
 */
export function violationsFor(tk: SchemaToolkit, schema: Schema, mode: 'strict' | 'coercing'): Violation[] {
  const s = tk.deref(schema);
  // Parameters are validated as properties of an object (as Fastify does), so coercion applies.
  const wrapped = tk.validator({ type: 'object', properties: { value: schema }, required: ['value'] }, mode);
  const isValid = (value: unknown) => wrapped({ value });
  const invalid = (arb: fc.Arbitrary<unknown>) => arb.filter((v) => !isValid(v));
  const out: Violation[] = [];
  const leaves = leafSchemas(tk, s);
  const asText = mode === 'coercing';
  const present = (v: unknown) => (asText && typeof v !== 'string' && !Array.isArray(v) ? String(v) : v);

  // Wrong type: constants the schema refuses (for text parameters, words that do not coerce).
  const wrongTypes = (
    asText ? ['abc', 'true', '1.5', '', '[]', '{}', 'null', '0x10', '1e400'] : WRONG_TYPE_CANDIDATES
  ).filter((v) => !isValid(v));
  if (wrongTypes.length > 0) out.push({ label: 'wrong-type', arb: fc.constantFrom(...wrongTypes) });

  const maxLength = Math.max(
    -1,
    ...leaves.filter((l) => l.maxLength !== undefined).map((l) => l.maxLength as number),
  );
  if (maxLength >= 0 && leaves.every((l) => l.type !== 'string' || l.maxLength !== undefined)) {
    out.push({
      label: 'too-long',
      arb: invalid(
        fc.oneof(
          fc.string({ unit: 'grapheme-ascii', minLength: maxLength + 1, maxLength: maxLength + 64 }),
          fc.integer({ min: maxLength + 1, max: maxLength * 3 + 300 }).map((n) => 'x'.repeat(n)),
        ),
      ),
    });
  }
  const minLength = Math.min(...leaves.filter((l) => l.type === 'string').map((l) => l.minLength ?? 0));
  if (Number.isFinite(minLength) && minLength > 0) {
    out.push({ label: 'too-short', arb: invalid(fc.string({ maxLength: minLength - 1 })) });
  }
  const numeric = leaves.filter((l) => l.type === 'integer' || l.type === 'number');
  if (numeric.length > 0) {
    const lows = numeric
      .map((l) => l.minimum ?? l.exclusiveMinimum)
      .filter((v) => v !== undefined) as number[];
    const highs = numeric
      .map((l) => l.maximum ?? l.exclusiveMaximum)
      .filter((v) => v !== undefined) as number[];
    if (lows.length === numeric.length) {
      const low = Math.min(...lows);
      out.push({
        label: 'below-minimum',
        arb: invalid(
          fc
            .oneof(
              fc.constant(low - 1),
              fc.double({ max: low, maxExcluded: true, noNaN: true, noDefaultInfinity: true }),
            )
            .map(present),
        ),
      });
    }
    if (highs.length === numeric.length) {
      const high = Math.max(...highs);
      out.push({
        label: 'above-maximum',
        arb: invalid(
          fc
            .oneof(
              fc.constant(high + 1),
              fc.double({ min: high, minExcluded: true, noNaN: true, noDefaultInfinity: true }),
            )
            .map(present),
        ),
      });
    }
    if (numeric.every((l) => l.type === 'integer') && !typesOf(tk, s).has('number')) {
      out.push({ label: 'not-an-integer', arb: invalid(fc.constantFrom(1.5, 2.0001, 0.1).map(present)) });
    }
  }
  const enums = leaves.filter((l) => Array.isArray(l.enum));
  if (enums.length > 0 && enums.length === leaves.filter((l) => l.type !== 'null').length) {
    out.push({
      label: 'not-in-enum',
      arb: invalid(fc.oneof(fc.constantFrom('bogus', 'PENDING', ' pending', 'pending ', '*'), fc.string())),
    });
  }
  if (leaves.some((l) => l.format === 'email')) {
    out.push({
      label: 'bad-email',
      arb: invalid(
        fc.constantFrom(
          'not-an-email',
          'a@',
          '@b.fr',
          'a b@c.fr',
          'a@b',
          'jane@@example.com',
          'jane@example..com',
        ),
      ),
    });
  }
  return out;
}

/** The non-composite schemas a value may match: anyOf/oneOf branches flattened, types split. */
function leafSchemas(tk: SchemaToolkit, schema: Schema): Schema[] {
  const s = tk.deref(schema);
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches)) {
    const { anyOf: _a, oneOf: _o, ...siblings } = s;
    return branches.flatMap((b: Schema) => leafSchemas(tk, { ...siblings, ...tk.deref(b) }));
  }
  if (Array.isArray(s.type)) return s.type.map((type: string) => ({ ...s, type }));
  if (!s.type && Array.isArray(s.enum)) return [{ ...s, type: typeof s.enum[0] }];
  return [s];
}
