import { type GraphqlError, parseOperation, resolveArguments } from './graphql-input.ts';
import { OPERATIONS } from './operations.ts';
import type { GraphqlCall, ShopState } from './state.ts';

export type Mode = 'up' | 'down' | 'throttled' | 'rate-limited';

export interface HttpAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
});

const INVALID_TOKEN = '[API] Invalid API key or access token (unrecognized login or wrong password)';

/** POST {shop}/admin/api/{version}/graphql.json, after the version and shop were found. */
export function answerGraphql(args: {
  shop: ShopState;
  version: string;
  mode: Mode;
  token: string | undefined;
  rawBody: string;
  webhookTopicEnum: string[];
}): HttpAnswer {
  const { shop, mode } = args;
  let request: { query?: unknown; variables?: unknown } = {};
  try {
    request = JSON.parse(args.rawBody);
  } catch {
    // handled below as a missing query
  }
  const variables = (request.variables ?? {}) as Record<string, unknown>;
  const parsed = typeof request.query === 'string' ? parseOperation(request.query) : null;
  const operation = parsed && 'field' in parsed ? parsed.field : null;
  const log = (outcome: GraphqlCall['outcome']) =>
    shop.calls.push({ operation, variables, outcome, at: Date.now() });

  if (mode === 'down') {
    log('down');
    return { status: 503, headers: { 'content-type': 'text/html' }, body: '<h1>Service Unavailable</h1>' };
  }
  if (mode === 'rate-limited') {
    log('rate-limited');
    return json(
      429,
      {
        errors:
          'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.',
      },
      { 'retry-after': '2.0' },
    );
  }
  if (!args.token || !shop.accessTokens.includes(args.token)) {
    log('unauthorized');
    return json(401, { errors: INVALID_TOKEN });
  }
  if (!parsed) {
    log('bad-request');
    return json(400, { errors: { query: 'Required parameter missing or invalid' } });
  }
  const fail = (errors: GraphqlError[]) => {
    log('errors');
    return json(200, { errors });
  };
  if (!('field' in parsed)) return fail([parsed]);
  const definition = OPERATIONS[parsed.field];
  if (!definition || definition.kind !== parsed.kind) {
    const typeName = parsed.kind === 'mutation' ? 'Mutation' : 'QueryRoot';
    return fail([
      {
        message: `Field '${parsed.field}' doesn't exist on type '${typeName}'`,
        extensions: { code: 'undefinedField', typeName, fieldName: parsed.field },
      },
    ]);
  }
  const resolved = resolveArguments(
    parsed,
    definition.args,
    variables,
    { WebhookSubscriptionTopic: args.webhookTopicEnum },
    args.version,
  );
  if ('errors' in resolved) return fail(resolved.errors);

  const requested = definition.requestedCost;
  if (mode === 'throttled' || !shop.bucket.tryTake(requested)) {
    log('throttled');
    return json(200, {
      errors: [
        {
          message: 'Throttled',
          extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
        },
      ],
      extensions: { cost: cost(shop, requested, null, mode === 'throttled') },
    });
  }
  const { result, actualCost } = definition.run(shop, resolved.values);
  shop.bucket.refund(requested - actualCost);
  log('ok');
  return json(200, {
    data: { [parsed.responseKey]: result },
    extensions: { cost: cost(shop, requested, actualCost, false) },
  });
}

function cost(shop: ShopState, requested: number, actual: number | null, forcedEmpty: boolean) {
  const throttleStatus = shop.bucket.status();
  if (forcedEmpty) throttleStatus.currentlyAvailable = 0;
  return { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus };
}
