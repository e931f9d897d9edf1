/**
 * Extreme numbers for every numeric input of an operation (body properties, query, path and header
 * parameters): values at and beyond the limits of doubles, of safe integers and of cents, which a
 * conversion (euros → cents, kilograms → grams) can turn into a RangeError, i.e. a 500. Each is
 * written as JSON text, so spellings JSON.stringify never produces (`-0`, `1e308`) are sent as such.
 */
import type { RequestSpec } from './cases.ts';
import { type Schema, type SchemaToolkit, typesOf } from './json-schema.ts';
import type { Operation } from './openapi.ts';

export const EXTREME_NUMBER_TEXTS = [
  '1e15',
  '1000000000000000',
  '1e21',
  '1e308',
  '-1e308',
  '1.7976931348623157e308',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '2147483648',
  '-2147483649',
  '1e-9',
  '-1e-9',
  '5e-324',
  '-0',
  '0.30000000000000004',
  '1.23456789012345678',
  '100000000.01',
  '99999999.999',
];

export interface NumericField {
  in: 'body' | 'query' | 'path' | 'header';
  name: string;
}

const isNumeric = (tk: SchemaToolkit, schema: Schema) => {
  const types = typesOf(tk, schema);
  return types.has('number') || types.has('integer');
};

/** Every input of `op` that admits a number. */
export function numericFieldsOf(tk: SchemaToolkit, op: Operation): NumericField[] {
  const fields: NumericField[] = op.parameters
    .filter((p) => p.in !== 'cookie' && isNumeric(tk, p.schema))
    .map((p) => ({ in: p.in as NumericField['in'], name: p.name }));
  const body = op.body?.schema ? tk.deref(op.body.schema) : null;
  for (const [name, schema] of Object.entries<Schema>(body?.properties ?? {}))
    if (isNumeric(tk, schema)) fields.push({ in: 'body', name });
  return fields;
}

const MARKER = '\u0001number';

/**
 * `spec` with `field` set to the number written `text`; null when the spec has no JSON object body
 * to put a body field in. `parsed` is what a JSON parser (the server's) reads.
 */
export function withNumber(
  spec: RequestSpec,
  field: NumericField,
  text: string,
): { spec: RequestSpec; parsed: unknown } | null {
  if (field.in === 'body') {
    const body = spec.body;
    if (body.kind !== 'json' || !body.value || typeof body.value !== 'object' || Array.isArray(body.value))
      return null;
    const json = JSON.stringify({ ...body.value, [field.name]: MARKER }).replace(
      JSON.stringify(MARKER),
      text,
    );
    return {
      spec: { ...spec, body: { kind: 'raw', text: json, contentType: 'application/json' } },
      parsed: JSON.parse(json),
    };
  }
  if (field.in === 'query') {
    const query: [string, string][] = [...spec.query.filter(([k]) => k !== field.name), [field.name, text]];
    return { spec: { ...spec, query }, parsed: Object.fromEntries(query) };
  }
  if (field.in === 'path') {
    const pathParams = { ...spec.pathParams, [field.name]: text };
    return { spec: { ...spec, pathParams }, parsed: pathParams };
  }
  const headers = { ...spec.headers, [field.name]: text };
  return { spec: { ...spec, headers }, parsed: headers };
}

/** Whether the document admits `parsed`, the part of the request `field` is in, as the server sees it. */
export function documentAdmits(
  tk: SchemaToolkit,
  op: Operation,
  field: NumericField,
  parsed: unknown,
): boolean {
  if (field.in === 'body') return tk.validator(op.body!.schema!, 'strict')(parsed);
  const params = op.parameters.filter((p) => p.in === field.in);
  const schema = {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
  return tk.validator(schema, 'coercing')(structuredClone(parsed));
}
