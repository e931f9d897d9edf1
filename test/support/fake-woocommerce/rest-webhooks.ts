import {
  EDIT,
  paginate,
  READ,
  type RestContext,
  type Route,
  validateCollection,
  wpError,
  wpJson,
} from './rest-basics.ts';
import { nextId, type Webhook, type WebhookStatus } from './state.ts';
import { generatedSecret, isValidTopic, ping, webhookDocument } from './webhooks.ts';

/** /wp-json/wc/v3/webhooks, after WC_REST_Webhooks_V1_Controller and its v2/v3 children. */

const STATUSES: WebhookStatus[] = ['active', 'paused', 'disabled'];
const INVALID_URL = 'Webhook delivery URL must be a valid URL starting with http:// or https://.';

function validUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

const find = (ctx: RestContext) => ctx.shop.webhooks.find((w) => String(w.id) === ctx.match[1]);
const invalidId = () => wpError(400, 'woocommerce_rest_webhook_invalid_id', 'ID is invalid.');

async function create(ctx: RestContext) {
  const { shop, body } = ctx;
  const topic = typeof body.topic === 'string' ? body.topic.toLowerCase() : '';
  if (!isValidTopic(topic))
    return wpError(
      400,
      'woocommerce_rest_webhook_invalid_topic',
      'Webhook topic is required and must be valid.',
    );
  if (!validUrl(body.delivery_url))
    return wpError(400, 'woocommerce_rest_webhook_invalid_delivery_url', INVALID_URL);
  const status =
    typeof body.status === 'string' && STATUSES.includes(body.status as WebhookStatus)
      ? body.status
      : 'active';
  const now = Date.now();
  const webhook: Webhook = {
    id: nextId(shop),
    name:
      typeof body.name === 'string' && body.name
        ? body.name
        : `Webhook created on ${new Date(now).toUTCString()}`,
    status: status as WebhookStatus,
    topic,
    deliveryUrl: body.delivery_url,
    secret: typeof body.secret === 'string' && body.secret ? body.secret : generatedSecret(),
    failureCount: 0,
    createdAt: now,
    modifiedAt: now,
  };
  shop.webhooks.push(webhook);
  // The controller builds its 201 answer, then pings before returning it; a failed ping changes nothing.
  if (webhook.status === 'active') await ping(shop, webhook, ctx.delivery);
  const location = `${shop.url}/wp-json/wc/v3/webhooks/${webhook.id}`;
  return wpJson(201, webhookDocument(shop, webhook), { Location: location });
}

function update(ctx: RestContext) {
  const webhook = find(ctx);
  if (!webhook) return invalidId();
  const { body } = ctx;
  if (body.topic) {
    if (!isValidTopic(String(body.topic).toLowerCase()))
      return wpError(400, 'woocommerce_rest_webhook_invalid_topic', 'Webhook topic must be valid.');
    webhook.topic = String(body.topic).toLowerCase();
  }
  if (body.delivery_url) {
    if (!validUrl(body.delivery_url))
      return wpError(400, 'woocommerce_rest_webhook_invalid_delivery_url', INVALID_URL);
    webhook.deliveryUrl = body.delivery_url;
  }
  if (body.secret) webhook.secret = String(body.secret);
  if (body.status) {
    if (!STATUSES.includes(String(body.status).toLowerCase() as WebhookStatus))
      return wpError(400, 'woocommerce_rest_webhook_invalid_status', 'Webhook status must be valid.');
    // Re-activating does not reset failure_count: only a successful delivery does.
    webhook.status = String(body.status).toLowerCase() as WebhookStatus;
  }
  if (body.name) webhook.name = String(body.name);
  webhook.modifiedAt = Date.now();
  return wpJson(200, webhookDocument(ctx.shop, webhook));
}

function remove(ctx: RestContext) {
  if (!['true', '1'].includes(ctx.query.get('force') ?? String(ctx.body.force ?? '')))
    return wpError(501, 'woocommerce_rest_trash_not_supported', 'Webhooks do not support trashing.');
  const webhook = find(ctx);
  if (!webhook) return wpError(404, 'woocommerce_rest_webhook_invalid_id', 'Invalid ID.');
  const document = webhookDocument(ctx.shop, webhook);
  ctx.shop.webhooks.splice(ctx.shop.webhooks.indexOf(webhook), 1);
  ctx.shop.pending = ctx.shop.pending.filter((p) => p.webhookId !== webhook.id);
  return wpJson(200, document);
}

function list(ctx: RestContext) {
  const status = ctx.query.get('status') ?? 'all';
  const hooks = ctx.shop.webhooks
    .filter((w) => status === 'all' || w.status === status)
    .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
  const { page, headers } = paginate(ctx, 'wc/v3/webhooks', hooks);
  return wpJson(
    200,
    page.map((w) => webhookDocument(ctx.shop, w)),
    headers,
  );
}

export const WEBHOOK_ROUTES: Route[] = [
  {
    methods: READ,
    path: /^\/wc\/v3\/webhooks$/,
    access: 'list',
    validate: (ctx) => validateCollection(ctx, ['date', 'id', 'include', 'title', 'slug']),
    handle: list,
  },
  { methods: ['POST'], path: /^\/wc\/v3\/webhooks$/, access: 'create', handle: create },
  {
    methods: READ,
    path: /^\/wc\/v3\/webhooks\/(\d+)$/,
    access: 'view',
    handle: (ctx) => {
      const webhook = find(ctx);
      return webhook ? wpJson(200, webhookDocument(ctx.shop, webhook)) : invalidId();
    },
  },
  { methods: EDIT, path: /^\/wc\/v3\/webhooks\/(\d+)$/, access: 'edit', handle: update },
  { methods: ['DELETE'], path: /^\/wc\/v3\/webhooks\/(\d+)$/, access: 'delete', handle: remove },
];
