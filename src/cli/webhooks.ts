import { deliveryJson, type WebhookDelivery } from '../domain/webhooks/delivery.ts';
import { endpointJson, type WebhookEndpoint } from '../domain/webhooks/endpoint.ts';
import type { WebhookRequest } from '../domain/webhooks/webhook-requests.ts';
import { AppError, invalidField, isAppError } from '../errors.ts';
import {
  BRAND_FLAG,
  type CommandSpec,
  coreCommand,
  optionalFlag,
  requireArg,
  requireFlag,
  table,
  UsageError,
} from './context.ts';

const ENDPOINT_ID = { name: 'ENDPOINT_ID', description: 'the endpoint (whk_…)' };

const iso = (d: Date | null) => d?.toISOString() ?? '—';

function endpointLine(e: WebhookEndpoint): string[] {
  const state = e.status === 'active' ? 'active' : `disabled (${e.disabledReason ?? 'no reason'})`;
  return [e.id, e.brandId, state, e.eventTypes.join(','), e.url];
}

function describeDeliveries(deliveries: WebhookDelivery[]): string {
  if (deliveries.length === 0) return 'No deliveries yet.';
  const rows = [['DELIVERY', 'EVENT', 'TYPE', 'STATUS', 'ATTEMPT', 'AT', 'HTTP', 'MS', 'DETAIL']];
  for (const d of deliveries) {
    const head = [d.id, d.eventId, d.eventType, d.status];
    if (d.attempts.length === 0) rows.push([...head, '—', `next ${iso(d.nextAttemptAt)}`, '', '', '']);
    for (const a of d.attempts) {
      const detail = [a.error, a.responseExcerpt]
        .filter(Boolean)
        .join(' — ')
        .replace(/\s+/g, ' ')
        .slice(0, 80);
      rows.push([
        ...head,
        String(a.attempt),
        a.startedAt.toISOString(),
        a.responseStatus === null ? '—' : String(a.responseStatus),
        String(a.durationMs),
        detail,
      ]);
    }
  }
  return table(rows);
}

/** `--since` as an ISO 8601 date or date-time; a bare date is midnight UTC. */
function parseSince(value: string): Date {
  const since = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? new Date(value) : null;
  if (!since || Number.isNaN(since.getTime())) {
    throw invalidField('since', `"${value}" is not an ISO 8601 time such as 2026-03-01T09:00:00Z`);
  }
  return since;
}

function requestJson(r: WebhookRequest) {
  return {
    id: r.id,
    brand_id: r.brandId,
    requested_by: r.userEmail,
    url: r.url,
    events: r.eventTypes,
    message: r.message,
    status: r.status,
    created_at: r.createdAt.toISOString(),
  };
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * The API's refusal of an http or loopback receiver, plus what only the operator can do about it:
 * WEBHOOKS_ALLOW_INSECURE is read by each process, so the server's setting does not reach dlv.
 */
function withInsecureHint(err: unknown, url: string): unknown {
  if (!isAppError(err)) return err;
  const code = err.details?.[0]?.problem?.code;
  const host = URL.canParse(url) ? new URL(url).hostname : '';
  if (code !== 'url.https' && !(code === 'url.notPublic' && LOOPBACK.test(host))) return err;
  return new AppError(
    err.code,
    `${err.message} (for a development receiver over http or on the loopback, set WEBHOOKS_ALLOW_INSECURE=1 in dlv's environment too, as on the server and the workers: each process reads its own; never in production)`,
    err.details,
  );
}

export const webhookCommands: CommandSpec[] = [
  coreCommand({
    path: 'webhooks add',
    description: "add a brand's webhook endpoint; prints its signing secret, once",
    flags: {
      brand: BRAND_FLAG,
      url: { value: 'URL', description: "the receiver's public https address", required: true },
      events: { value: 'LIST', description: 'comma-separated event types (default: all)' },
    },
    async run(ctx) {
      const url = requireFlag(ctx, 'url');
      const { endpoint, secret } = await ctx.deps.webhooks
        .add(
          { brandId: requireFlag(ctx, 'brand'), url, events: optionalFlag(ctx, 'events') ?? undefined },
          ctx.by,
        )
        .catch((err: unknown) => {
          throw withInsecureHint(err, url);
        });
      ctx.out(
        [
          `Added webhook endpoint ${endpoint.id} for ${endpoint.brandId}: ${endpoint.url}`,
          `  events: ${endpoint.eventTypes.join(', ')}`,
          `  signing secret (shown once, give it to the receiver): ${secret}`,
        ].join('\n'),
        { ...endpointJson(endpoint), secret },
      );
    },
  }),
  coreCommand({
    path: 'webhooks list',
    description: 'webhook endpoints and their state (why a disabled one is)',
    flags: { brand: { value: 'ID', description: "only this brand's" } },
    async run(ctx) {
      const brandId = optionalFlag(ctx, 'brand');
      if (brandId !== null) await ctx.deps.brands.get(brandId);
      const endpoints = await ctx.deps.webhooks.list(brandId);
      ctx.out(
        endpoints.length
          ? table([['ID', 'BRAND', 'STATUS', 'EVENTS', 'URL'], ...endpoints.map(endpointLine)])
          : 'No webhook endpoints.',
        { endpoints: endpoints.map(endpointJson) },
      );
    },
  }),
  coreCommand({
    path: 'webhooks disable',
    description: 'disable an endpoint; its pending deliveries are not sent',
    args: [ENDPOINT_ID],
    async run(ctx) {
      const endpoint = await ctx.deps.webhooks.disable(requireArg(ctx, 0, 'ENDPOINT_ID'), ctx.by);
      ctx.out(`Disabled ${endpoint.id}; pending deliveries to it will not be sent.`, endpointJson(endpoint));
    },
  }),
  coreCommand({
    path: 'webhooks enable',
    description: 'enable an endpoint again (webhooks replay --since sends what it missed)',
    args: [ENDPOINT_ID],
    async run(ctx) {
      const endpoint = await ctx.deps.webhooks.enable(requireArg(ctx, 0, 'ENDPOINT_ID'), ctx.by);
      ctx.out(
        `Enabled ${endpoint.id}. Events it missed are resent with: dlv webhooks replay --since TIME --endpoint ${endpoint.id}`,
        endpointJson(endpoint),
      );
    },
  }),
  coreCommand({
    path: 'webhooks rotate-secret',
    description: 'a new signing secret, printed once; the previous one also signs for 24 hours',
    args: [ENDPOINT_ID],
    async run(ctx) {
      const { endpoint, secret } = await ctx.deps.webhooks.rotateSecret(
        requireArg(ctx, 0, 'ENDPOINT_ID'),
        ctx.by,
      );
      ctx.out(
        [
          `New signing secret for ${endpoint.id} (shown once): ${secret}`,
          `  the previous secret also signs until ${iso(endpoint.previousSecretExpiresAt)}`,
        ].join('\n'),
        { ...endpointJson(endpoint), secret },
      );
    },
  }),
  coreCommand({
    path: 'webhooks replay',
    description: "send a delivery's event again (--delivery), or every event since a time (--since)",
    flags: {
      delivery: { value: 'ID', description: 'the delivery (whd_…)' },
      since: { value: 'TIME', description: 'an ISO 8601 date or time (2026-03-01T09:00:00Z)' },
      endpoint: { value: 'ID', description: 'with --since: to this endpoint only' },
    },
    async run(ctx) {
      const deliveryId = optionalFlag(ctx, 'delivery');
      const since = optionalFlag(ctx, 'since');
      if ((deliveryId === null) === (since === null)) {
        throw new UsageError('give exactly one of --delivery ID or --since TIME');
      }
      if (deliveryId !== null) {
        if (ctx.flags.endpoint !== undefined) throw new UsageError('--endpoint goes with --since only');
        const replay = await ctx.deps.webhooks.replayDelivery(deliveryId, ctx.by);
        ctx.out(`Replaying ${replay.eventId} to ${replay.endpointId} as delivery ${replay.id}.`, {
          deliveries: [deliveryJson(replay)],
        });
        return;
      }
      const ids = await ctx.deps.webhooks.replaySince(
        parseSince(since!),
        optionalFlag(ctx, 'endpoint'),
        ctx.by,
      );
      ctx.out(`Replaying ${ids.length} deliveries.`, { count: ids.length, delivery_ids: ids });
    },
  }),
  coreCommand({
    path: 'webhooks deliveries',
    description: "an endpoint's deliveries, every attempt: status, duration, response excerpt, error",
    flags: {
      endpoint: { value: 'ID', description: 'the endpoint', required: true },
      limit: { value: 'N', description: 'at most N deliveries' },
    },
    async run(ctx) {
      const limitFlag = optionalFlag(ctx, 'limit');
      const limit = limitFlag === null ? undefined : /^\d+$/.test(limitFlag) ? Number(limitFlag) : Number.NaN;
      const deliveries = await ctx.deps.webhooks.deliveries(requireFlag(ctx, 'endpoint'), limit);
      ctx.out(describeDeliveries(deliveries), { deliveries: deliveries.map(deliveryJson) });
    },
  }),
  coreCommand({
    path: 'webhooks requests',
    description: "open webhook requests from the account area's webhooks page",
    async run(ctx) {
      const requests = await ctx.deps.webhookRequests.listOpen();
      const rows = requests.map((r) => [
        r.id,
        r.brandId,
        r.createdAt.toISOString(),
        r.userEmail ?? '—',
        r.eventTypes.join(','),
        r.url,
        r.message.replace(/\s+/g, ' ').slice(0, 60),
      ]);
      const human = requests.length
        ? `${table([['REQUEST', 'BRAND', 'AT', 'BY', 'EVENTS', 'URL', 'MESSAGE'], ...rows])}
Set one up with: dlv webhooks add --brand BRAND --url URL --events EVENTS\nor open the subscription API to the brand: dlv brands allow-webhooks BRAND\nthen close it: dlv webhooks requests close REQUEST [--declined]`
        : 'No open webhook requests.';
      ctx.out(human, { requests: requests.map(requestJson) });
    },
  }),
  coreCommand({
    path: 'webhooks requests close',
    description: 'answer an open request: done, or declined',
    args: [{ name: 'REQUEST_ID', description: 'the request (whr_…)' }],
    flags: { declined: { description: 'declined rather than done' } },
    async run(ctx) {
      const status = ctx.flags.declined === true ? 'declined' : 'done';
      const closed = await ctx.deps.webhookRequests.close(requireArg(ctx, 0, 'REQUEST_ID'), status, ctx.by);
      ctx.out(`Request ${closed.id} of ${closed.brandId} is ${closed.status}.`, {
        request: requestJson(closed),
      });
    },
  }),
];
