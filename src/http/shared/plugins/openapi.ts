import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { rolesGranting } from '../../../domain/operators/scopes.ts';
import { sendJsonText } from '../json-text.ts';
import { OPTIONAL_BODY } from '../optional-body.ts';
import { errorResponses, REQUEST_ID_PATTERN } from '../schemas/shared.ts';
import { describeExamples, type ExampleCatalogue } from './openapi-examples.ts';
import { registerReferencePage } from './reference-page.ts';

export interface OpenApiOptions {
  title: string;
  description: string;
  serverUrl: string;
  tags: { name: string; description: string }[];
  /** How the routes of this document authenticate, described in `components.securitySchemes`. */
  securityScheme: { name: string; description: string };
  /** OpenAPI 3.1 `webhooks`: the requests this API sends, described like operations. */
  webhooks?: Record<string, unknown>;
  /** The server's audience (`x-internal`): false for the public API, true for the operator's. */
  internal: boolean;
  /** Whether key-authenticated operations are rate limited per key (and send RateLimit headers). */
  rateLimited: boolean;
  /** Request and response examples, by operationId (see src/http/schemas/examples). */
  examples: ExampleCatalogue;
}

/** Response headers, in `components.headers`, referenced from the responses that carry them. */
const HEADERS = {
  'X-Request-Id': {
    description: 'The request id, also in error bodies (`request_id`): quote it to support.',
    schema: {
      type: 'string' as const,
      pattern: REQUEST_ID_PATTERN,
      maxLength: 128,
      examples: ['req_3f9a0c1d2e3f000000000001'],
    },
  },
  RateLimit: {
    description:
      'Where the API key stands (IETF RateLimit header fields): `r` requests left now, `t` seconds until the bucket is full. ' +
      'Sent on every response to a request with a valid key, unless the deployment turns limiting off.',
    schema: {
      type: 'string' as const,
      pattern: '^"per-key";r=[0-9]+;t=[0-9]+$',
      maxLength: 100,
      examples: ['"per-key";r=57;t=1'],
    },
  },
  'RateLimit-Policy': {
    description: 'The per-key policy: a burst of `q` requests, refilled over `w` seconds.',
    schema: {
      type: 'string' as const,
      pattern: '^"per-key";q=[0-9]+;w=[0-9]+$',
      maxLength: 100,
      examples: ['"per-key";q=100;w=2'],
    },
  },
  'Idempotent-Replayed': {
    description:
      '`true` when this is the stored response of an earlier request with the same Idempotency-Key and body ' +
      '(nothing was created again); absent otherwise. Only successes are stored and replayed.',
    schema: { type: 'string' as const, enum: ['true'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer' as const, format: 'int32', minimum: 1, maximum: 3600, examples: [1] },
  },
  'WWW-Authenticate': {
    description: 'The authentication scheme to use.',
    schema: { type: 'string' as const, enum: ['Bearer realm="dlv"'] },
  },
};

/**
 * Generates the OpenAPI 3.1 document from the route schemas of the context it is registered in
 * (so the public and the operations APIs each get their own document), and fills in each
 * operation's security from the route's `config.auth`.
 */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  app.addHook('onRoute', (route: RouteOptions) => describeSecurity(route, options.securityScheme.name));
  const server = {
    url: options.serverUrl,
    description: options.serverUrl.startsWith('https:')
      ? 'Production'
      : 'Local development (plain HTTP); production sets PUBLIC_BASE_URL to its https address',
    // OWASP API9: who the server is for (the operations API is the operator's own).
    'x-internal': options.internal,
  };
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: options.title,
        version: '1.0.0',
        description: options.description,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        contact: { name: 'API support', email: 'api@dlv.example' },
      },
      servers: [server],
      tags: options.tags,
      ...(options.webhooks ? { webhooks: options.webhooks } : {}),
      components: {
        securitySchemes: {
          [options.securityScheme.name]: {
            type: 'http',
            scheme: 'bearer',
            description: options.securityScheme.description,
          },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (document) =>
      'openapiObject' in document
        ? describeExamples(
            describeResponseHeaders(describeOptionalBodies(document.openapiObject), options),
            options.examples,
          )
        : document.swaggerObject,
  });
}

interface Operation {
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> };
  responses?: Record<string, { headers?: Record<string, unknown> }>;
}

/**
 * An operation that takes no body (`NoBody`, src/http/shared/validation.ts) accepts none at all:
 * its request body is optional (@fastify/swagger marks every body required), and the marker the
 * validator reads is not part of the contract.
 */
function describeOptionalBodies<T extends { paths?: object }>(document: T): T {
  for (const pathItem of Object.values(document.paths ?? {}) as Record<string, Operation>[]) {
    for (const operation of Object.values(pathItem)) {
      const body = operation.requestBody;
      const schemas = Object.values(body?.content ?? {}).map((media) => media.schema);
      if (!body || !schemas.some((schema) => schema?.[OPTIONAL_BODY])) continue;
      body.required = false;
      for (const schema of schemas) delete schema?.[OPTIONAL_BODY];
    }
  }
  return document;
}

/**
 * Adds the headers each response carries: `X-Request-Id` on all; on operations authenticated with
 * this document's scheme, `RateLimit` and `RateLimit-Policy` on every 2xx and 4xx but 401 (a request
 * refused before its key is known is not counted); `Retry-After` on every 429, `WWW-Authenticate` on 401;
 * `Idempotent-Replayed` on the successes of operations that take an `Idempotency-Key`.
 */
function describeResponseHeaders<T extends { paths?: object; components?: object }>(
  document: T,
  options: OpenApiOptions,
): T {
  const used = new Set<keyof typeof HEADERS>();
  const ref = (name: keyof typeof HEADERS) => {
    used.add(name);
    return { $ref: `#/components/headers/${name}` };
  };
  for (const pathItem of Object.values(document.paths ?? {}) as Record<string, Operation>[]) {
    for (const operation of Object.values(pathItem)) {
      const keyed = operation.security?.some((r) => options.securityScheme.name in r) ?? false;
      const idempotent =
        operation.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key') ??
        false;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const headers: Record<string, unknown> = { ...response.headers, 'X-Request-Id': ref('X-Request-Id') };
        if (idempotent && status.startsWith('2')) headers['Idempotent-Replayed'] = ref('Idempotent-Replayed');
        if (status === '401') headers['WWW-Authenticate'] = ref('WWW-Authenticate');
        else if (keyed && options.rateLimited && /^[24]/.test(status)) {
          headers.RateLimit = ref('RateLimit');
          headers['RateLimit-Policy'] = ref('RateLimit-Policy');
        }
        if (status === '429') headers['Retry-After'] = ref('Retry-After');
        response.headers = headers;
      }
    }
  }
  const headers = Object.fromEntries([...used].sort().map((name) => [name, HEADERS[name]]));
  return { ...document, components: { ...document.components, headers } };
}

function describeSecurity(route: RouteOptions, schemeName: string): void {
  const schema = route.schema as Record<string, unknown> | undefined;
  const auth = route.config?.auth;
  // A GET route's schema object is shared with the HEAD route Fastify adds: describe it once.
  if (!schema || schema.hide || schema.security) return;
  if (auth === 'none') {
    schema.security = [];
    return;
  }
  if (typeof auth === 'object' && 'ops' in auth) {
    const requirement = auth.ops;
    const scoped = requirement !== 'any' && requirement !== 'own_session';
    // OpenAPI 3.1: the roles or scopes an http scheme's requirement needs may be listed.
    schema.security = [{ [schemeName]: scoped ? [requirement] : [] }];
    const text = scoped
      ? `Requires the \`${requirement}\` scope: a machine token created with it, a person whose role grants it (${rolesGranting(requirement).join(', ')}), or OPS_TOKEN.`
      : requirement === 'own_session'
        ? "Requires an operator's own session (a person signed in; a setup session too): not a machine token nor OPS_TOKEN."
        : 'Any operator credential (a setup session too).';
    schema.description = schema.description ? `${schema.description}\n\n${text}` : text;
    if (scoped) schema['x-required-scope'] = requirement;
    return;
  }
  schema.security = [{ [schemeName]: [] }];
  if (auth && auth !== 'any') {
    const requirement = `Requires an API key with the \`${auth}\` scope.`;
    schema.description = schema.description ? `${schema.description}\n\n${requirement}` : requirement;
    schema['x-required-scope'] = auth;
  }
}

export interface ServedBaseUrl {
  /** PUBLIC_BASE_URL: when set, the `servers` entry of the served document. */
  publicBaseUrl: string | null;
  host: string;
  port: number;
}

/**
 * Serves the document (itself described as an operation) and its reference page. Its `servers`
 * entry is PUBLIC_BASE_URL when set, else the address this server actually listens on (with
 * `PORT=0`, the port it was given), so "Try it" and generated clients reach this very server.
 */
export async function registerDocsPage(
  app: FastifyInstance,
  prefix: string,
  base: ServedBaseUrl,
): Promise<void> {
  let served: { url: string; json: string } | null = null;
  app.get(
    '/openapi.json',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI 3.1 document',
        description:
          'The description of this API that client generators and the reference page (`docs`) read.',
        tags: ['System'],
        response: {
          200: {
            description: 'The OpenAPI 3.1 document.',
            type: 'object',
            required: ['openapi', 'info', 'paths'],
            properties: {
              openapi: { type: 'string', pattern: '^3\\.1\\.[0-9]+$', maxLength: 10 },
              info: { type: 'object' },
              paths: { type: 'object' },
            },
            additionalProperties: true,
          },
          ...errorResponses([]),
        },
      },
    },
    async (_req, reply) => {
      const url = `${base.publicBaseUrl ?? `http://${base.host}:${listeningPort(app, base.port)}`}${prefix}`;
      if (served?.url !== url) {
        const document = app.swagger() as { servers?: Record<string, unknown>[] };
        const servers = (document.servers ?? []).map((server) => ({ ...server, url }));
        served = { url, json: JSON.stringify({ ...document, servers }) };
      }
      return sendJsonText(reply.header('cache-control', 'public, max-age=60'), served.json);
    },
  );
  registerReferencePage(app, prefix, () => {
    const { info } = app.swagger() as { info: { title: string; contact?: { email?: string } } };
    return { title: info.title, contact: info.contact?.email ?? '' };
  });
}

function listeningPort(app: FastifyInstance, configured: number): number {
  const address = app.server.address();
  return typeof address === 'object' && address !== null ? address.port : configured;
}
