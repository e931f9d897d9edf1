/** The operations an OpenAPI 3.1 document declares, and a check of a response against them. */
import type { Schema, SchemaToolkit } from './json-schema.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  /** `operationId`, else `METHOD /path`. */
  id: string;
  method: string;
  /** As in the document, e.g. `/orders/{trackingRef}`. */
  path: string;
  parameters: Parameter[];
  body: { schema: Schema | null; required: boolean; mediaTypes: string[] } | null;
  /** False when the operation says `security: []`. */
  secured: boolean;
  /** The `x-required-scope` extension: the scope a key needs beyond being valid. */
  requiredScope: string | null;
  responses: Record<string, Schema>;
}

export function operationsOf(doc: Schema, tk: SchemaToolkit): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths ?? {})) {
    const shared: Schema[] = item.parameters ?? [];
    for (const method of METHODS) {
      const op: Schema | undefined = item[method];
      if (!op) continue;
      const byKey = new Map<string, Parameter>();
      for (const raw of [...shared, ...(op.parameters ?? [])]) {
        const p = tk.deref(raw);
        byKey.set(`${p.in}:${p.name}`, {
          name: p.name,
          in: p.in,
          required: p.in === 'path' || p.required === true,
          schema: p.schema ?? {},
        });
      }
      const requestBody = op.requestBody ? tk.deref(op.requestBody) : null;
      const security = op.security ?? doc.security ?? [];
      operations.push({
        id: op.operationId ?? `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters: [...byKey.values()],
        body: requestBody
          ? {
              schema: requestBody.content?.['application/json']?.schema ?? null,
              required: requestBody.required === true,
              mediaTypes: Object.keys(requestBody.content ?? {}),
            }
          : null,
        secured: security.length > 0 && !security.some((s: Schema) => Object.keys(s).length === 0),
        requiredScope: op['x-required-scope'] ?? null,
        responses: Object.fromEntries(
          Object.entries<Schema>(op.responses ?? {}).map(([status, r]) => [status, tk.deref(r)]),
        ),
      });
    }
  }
  return operations;
}

export interface ResponseLike {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  rawPayload: Buffer;
}

/** What is wrong with a response, judged by the document alone (empty when nothing is). */
export function responseProblems(tk: SchemaToolkit, op: Operation, res: ResponseLike): string[] {
  const problems: string[] = [];
  const status = String(res.statusCode);
  if (res.statusCode >= 500) problems.push(`server error ${status}`);
  const declared = op.responses[status] ?? op.responses[`${status[0]}XX`] ?? op.responses.default;
  if (!declared) {
    problems.push(
      `status ${status} is not declared for ${op.id} (declared: ${Object.keys(op.responses).join(', ')})`,
    );
    return problems;
  }
  for (const [name, raw] of Object.entries<Schema>(declared.headers ?? {})) {
    if (name.toLowerCase() === 'content-type') continue; // described by `content`, per OpenAPI
    const header = tk.deref(raw);
    const value = res.headers[name.toLowerCase()];
    if (value === undefined) {
      if (header.required) problems.push(`required header ${name} is missing`);
      continue;
    }
    const validate = tk.validator({ type: 'object', properties: { value: header.schema ?? {} } }, 'coercing');
    if (!validate({ value: String(value) }))
      problems.push(`header ${name}: "${value}" does not match its schema`);
  }
  const contentType = String(res.headers['content-type'] ?? '');
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  const content: Record<string, Schema> = declared.content ?? {};
  if (Object.keys(content).length === 0) {
    if (res.rawPayload.length > 0)
      problems.push(`status ${status} declares no body but one was sent (${mediaType})`);
    return problems;
  }
  const media = content[mediaType];
  if (!media) {
    problems.push(
      `media type "${mediaType}" is not declared for ${status} (declared: ${Object.keys(content).join(', ')})`,
    );
    return problems;
  }
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
    let data: unknown;
    try {
      data = JSON.parse(res.body);
    } catch {
      problems.push(`body is not JSON although ${mediaType}`);
      return problems;
    }
    if (media.schema) {
      const validate = tk.validator(media.schema, 'response');
      if (!validate(data)) {
        problems.push(
          `body does not match the ${status} schema: ${JSON.stringify(tk.errorsOf(validate))} in ${res.body.slice(0, 500)}`,
        );
      }
      // Schemas leave additionalProperties open, so Ajv accepts extra fields: those are undocumented.
      const extra = undocumentedFields(tk, media.schema, data, '');
      if (extra.length > 0) problems.push(`undocumented field(s) in the ${status} body: ${extra.join(', ')}`);
    }
  } else if (mediaType === 'application/pdf') {
    if (res.rawPayload.subarray(0, 5).toString('latin1') !== '%PDF-')
      problems.push('application/pdf body is not a PDF');
  }
  return problems;
}

/** Object keys in `data` that `schema` does not describe (through allOf/anyOf/oneOf too). */
function undocumentedFields(tk: SchemaToolkit, schema: Schema, data: unknown, path: string): string[] {
  const branches = flatten(tk, schema);
  if (Array.isArray(data)) {
    const items = branches.map((b) => b.items).filter(Boolean) as Schema[];
    if (items.length === 0) return [];
    return data.flatMap((item, i) => undocumentedFields(tk, { anyOf: items }, item, `${path}[${i}]`));
  }
  if (!data || typeof data !== 'object') return [];
  const objects = branches.filter(
    (b) => b.properties || b.type === 'object' || [b.type].flat().includes('object'),
  );
  if (
    objects.length === 0 ||
    objects.some((b) => b.additionalProperties !== undefined && b.additionalProperties !== false)
  ) {
    return [];
  }
  const out: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const declaring = objects.map((b) => b.properties?.[key]).filter(Boolean) as Schema[];
    const where = path ? `${path}.${key}` : key;
    if (declaring.length === 0) out.push(where);
    else out.push(...undocumentedFields(tk, { anyOf: declaring }, value, where));
  }
  return out;
}

/** A schema's alternatives and parts as plain schemas: `$ref`s followed, allOf/anyOf/oneOf spread. */
function flatten(tk: SchemaToolkit, schema: Schema): Schema[] {
  const s = tk.deref(schema);
  const parts = [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])] as Schema[];
  return [s, ...parts.flatMap((p) => flatten(tk, p))];
}
