import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';

export interface OpenApiOptions {
  title: string;
  description: string;
  serverUrl: string;
  tags: { name: string; description: string }[];
  /** How the routes of this document authenticate, described in `components.securitySchemes`. */
  securityScheme: { name: string; description: string };
  /** OpenAPI 3.1 `webhooks`: the requests this API sends, described like operations. */
  webhooks?: Record<string, unknown>;
}

/**
 * Generates the OpenAPI 3.1 document from the route schemas of the context it is registered in
 * (so the public and the operations APIs each get their own document), and fills in each
 * operation's security from the route's `config.auth`.
 */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  app.addHook('onRoute', (route: RouteOptions) => describeSecurity(route, options.securityScheme.name));
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
      servers: [{ url: options.serverUrl, description: 'Production' }],
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
  });
}

function describeSecurity(route: RouteOptions, schemeName: string): void {
  const schema = route.schema as Record<string, unknown> | undefined;
  const auth = route.config?.auth;
  if (!schema || schema.hide) return;
  if (auth === 'none') {
    schema.security = [];
    return;
  }
  schema.security = [{ [schemeName]: [] }];
  if (auth && auth !== 'any') {
    const requirement = `Requires an API key with the \`${auth}\` scope.`;
    schema.description = schema.description ? `${schema.description}\n\n${requirement}` : requirement;
    schema['x-required-scope'] = auth;
  }
}

export async function registerDocsPage(app: FastifyInstance, prefix: string): Promise<void> {
  app.get('/openapi.json', { config: { auth: 'none' }, schema: { hide: true } }, async (_req, reply) =>
    reply.header('cache-control', 'public, max-age=60').send(app.swagger()),
  );
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The page links its assets absolutely; they live under this context's prefix.
    indexPrefix: prefix,
    uiConfig: { url: `${prefix}/openapi.json`, deepLinking: true },
    staticCSP: false,
  });
}
