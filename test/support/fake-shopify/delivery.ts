import { randomUUID } from 'node:crypto';
import { bodyHmac } from './signing.ts';

/** Shopify waits 5 seconds for a webhook answer before counting the delivery as failed. */
const WEBHOOK_TIMEOUT_MS = 5_000;

export interface PostResult {
  /** 0 when no answer came (refused, reset or timed out). */
  status: number;
  body: string;
  ms: number;
}

export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<PostResult> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.status, body: await response.text(), ms: performance.now() - started };
  } catch {
    return { status: 0, body: '', ms: performance.now() - started };
  }
}

export interface WebhookDelivery {
  shop: string;
  topic: string;
  url: string;
  body: string;
  headers: Record<string, string>;
  attempts: { status: number; at: number }[];
}

/**
 * One webhook to one address, with the headers Shopify documents. The webhook id (idempotency key)
 * and the triggered-at time are fixed here and stay the same on every retry of this delivery.
 */
export function newDelivery(args: {
  secret: string;
  shop: string;
  topic: string;
  apiVersion: string;
  url: string;
  body: string;
  eventId: string;
  webhookId?: string;
}): WebhookDelivery {
  return {
    shop: args.shop,
    topic: args.topic,
    url: args.url,
    body: args.body,
    attempts: [],
    headers: {
      'X-Shopify-Topic': args.topic,
      'X-Shopify-Hmac-Sha256': bodyHmac(args.secret, args.body),
      'X-Shopify-Shop-Domain': args.shop,
      'X-Shopify-API-Version': args.apiVersion,
      'X-Shopify-Webhook-Id': args.webhookId ?? randomUUID(),
      'X-Shopify-Event-Id': args.eventId,
      'X-Shopify-Triggered-At': new Date().toISOString(),
    },
  };
}

export async function attempt(delivery: WebhookDelivery): Promise<PostResult> {
  const result = await postJson(delivery.url, delivery.body, delivery.headers, WEBHOOK_TIMEOUT_MS);
  delivery.attempts.push({ status: result.status, at: Date.now() });
  return result;
}

export const succeeded = (status: number) => status >= 200 && status < 300;

/** The carrier-service rate request body, with a Paris destination; `rate` overrides its parts. */
export function rateRequestBody(rate: Record<string, unknown> = {}): string {
  const destination = {
    country: 'FR',
    postal_code: '75011',
    province: null,
    city: 'Paris',
    name: 'Claire Martin',
    address1: '12 rue Oberkampf',
    address2: null,
    address3: null,
    phone: '+33 6 12 34 56 78',
    fax: null,
    email: null,
    address_type: null,
    company_name: null,
  };
  return JSON.stringify({
    rate: {
      origin: {
        ...destination,
        postal_code: '75001',
        city: 'Paris',
        name: 'Boutique',
        address1: '1 rue de Rivoli',
        phone: null,
        company_name: 'Boutique',
      },
      destination,
      items: [
        {
          name: 'Coffret thé vert',
          sku: 'THE-VERT-01',
          quantity: 2,
          grams: 450,
          price: 2490,
          vendor: 'Boutique',
          requires_shipping: true,
          taxable: true,
          fulfillment_service: 'manual',
          properties: null,
          product_id: 48447225880,
          variant_id: 258644705304,
        },
      ],
      currency: 'EUR',
      locale: 'fr',
      ...rate,
    },
  });
}
