/**
 * What the SDK and collection generators read of openapi.json: its operations in document order,
 * each with its path, query and header parameters, body and success response. One reading, so the
 * TypeScript, PHP and Python SDKs and the Postman collection describe the same operations.
 */

export type JsonSchema = Record<string, any>;

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, JsonSchema> };
  webhooks?: Record<string, { post: any }>;
}

interface Parameter {
  name: string;
  /** The name as an identifier in the SDKs (camelCase for path parameters: trackingRef). */
  required: boolean;
  description: string;
  schema: JsonSchema;
}

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  tag: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The operation takes an Idempotency-Key header: the SDKs send one generated per call. */
  idempotent: boolean;
  body: { required: boolean; schema: JsonSchema; example?: unknown } | null;
  /** The JSON success response's schema, or null when the success is a file (PDF, ZPL). */
  response: JsonSchema | null;
  /** The media types of a file response (application/pdf…), empty for JSON. */
  fileTypes: string[];
  /** Whether a list's page carries `next_cursor` (the SDKs' pagination helpers walk it). */
  paginated: boolean;
  deprecated: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function readOperations(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters: any[] = op.parameters ?? [];
      const param = (p: any): Parameter => ({
        name: p.name,
        required: p.required === true,
        description: p.description ?? '',
        schema: p.schema ?? {},
      });
      const success = Object.entries(op.responses ?? {}).find(([code]) => /^2\d\d$/.test(code))?.[1] as any;
      const content = success?.content ?? {};
      const json = content['application/json']?.schema ?? null;
      const bodyContent = op.requestBody?.content?.['application/json'];
      const firstExample = bodyContent?.examples
        ? Object.values<any>(bodyContent.examples)[0]?.value
        : undefined;
      operations.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? '',
        description: op.description ?? '',
        tag: op.tags?.[0] ?? 'Other',
        pathParams: parameters.filter((p) => p.in === 'path').map(param),
        queryParams: parameters.filter((p) => p.in === 'query').map(param),
        idempotent: parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'),
        body: bodyContent
          ? {
              required: op.requestBody.required === true,
              schema: bodyContent.schema ?? {},
              example: firstExample,
            }
          : null,
        response: json,
        fileTypes: json ? [] : Object.keys(content),
        paginated: Boolean(json?.properties?.next_cursor),
        deprecated: op.deprecated === true,
      });
    }
  }
  return operations;
}

/** `createOrder` → `CreateOrder`. */
export function pascal(name: string): string {
  return name.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());
}

/** `createOrder` → `create_order`. */
export function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase();
}

/** `#/components/schemas/Order` → `Order`. */
export function refName(ref: string): string {
  return ref.split('/').pop()!;
}

/** The first line of a description, for doc comments. */
export function firstSentence(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
