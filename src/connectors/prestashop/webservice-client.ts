import type { JsonRequester, JsonResponse } from '../../infra/http/json-request.ts';
import { requestShop, ShopApiError, shopApiFailureOf } from '../shop-api-error.ts';

// The shop's failures are ShopApiErrors (src/connectors/shop-api-error.ts): `unauthorized`, our
// Webservice key refused (deleted, deactivated); `retry_later` (no answer, 5xx, 429: the job tries
// again after its backoff); `request_failed` (a permission the key lacks, an unknown id…). Their
// former names, as `instanceof` checks:
export const PrestaShopRetryLater = shopApiFailureOf('prestashop', 'retry_later');
export const PrestaShopRequestFailed = shopApiFailureOf('prestashop', 'request_failed');

export type Query = Record<string, string>;

/** PrestaShop's error body: {"errors":[{"code":N,"message":"…"}]} (JSON output), else the status. */
function describeError(response: JsonResponse): string {
  try {
    const errors = (JSON.parse(response.text) as { errors?: { code?: number; message?: string }[] }).errors;
    if (Array.isArray(errors) && errors.length > 0)
      return errors
        .map((e) => `${e.message ?? 'error'} (code ${e.code ?? '?'})`)
        .join('; ')
        .slice(0, 300);
  } catch {}
  return `HTTP ${response.status}`;
}

const cdata = (value: string) => `<![CDATA[${value.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;

/**
 * One object as the Webservice reads writes: `<prestashop><order_carrier><id>…</id>…</order_carrier>
 * </prestashop>`, every value in CDATA; multilingual fields ([{id, value}]) as `<language id="N">`.
 * Associations and other nested values are left out (the objects we write have none).
 */
export function toPrestaShopXml(entity: string, fields: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (!/^[a-z_][a-z0-9_]*$/i.test(name)) continue;
    if (typeof value === 'string' || typeof value === 'number')
      parts.push(`<${name}>${cdata(String(value))}</${name}>`);
    else if (
      Array.isArray(value) &&
      value.every((v) => v && typeof v === 'object' && 'id' in v && 'value' in v)
    )
      parts.push(
        `<${name}>${value.map((v) => `<language id="${Number(v.id)}">${cdata(String(v.value))}</language>`).join('')}</${name}>`,
      );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<prestashop xmlns:xlink="http://www.w3.org/1999/xlink"><${entity}>${parts.join('')}</${entity}></prestashop>`;
}

/**
 * A shop's Webservice (`{shop}/api/…`): the key as the Basic user with an empty password, JSON
 * output for reads, XML bodies for writes (a JSON body is refused, code 127). The shop URL was
 * chosen by a brand: every call goes through the shops' outbound client (`request`), which connects
 * only to addresses its SSRF guard (the webhooks' one) has just checked. Never logs: the
 * Authorization header carries the key.
 */
export function prestashopWebservice(options: { request: JsonRequester; timeoutMs?: number }) {
  const { request } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function call(
    shopUrl: string,
    key: string,
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    query: Query,
    xml?: string,
    output: 'JSON' | 'XML' = 'JSON',
  ): Promise<unknown> {
    const url = new URL(`${shopUrl}/api/${path}`);
    for (const [name, value] of Object.entries(
      output === 'JSON' ? { ...query, output_format: 'JSON' } : query,
    ))
      url.searchParams.set(name, value);
    const response = await requestShop('prestashop', request, {
      url: url.toString(),
      method,
      headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
      ...(xml === undefined ? {} : { rawBody: { contentType: 'text/xml', text: xml } }),
      timeoutMs,
    });
    const { status } = response;
    if (status === 401) {
      const reason = describeError(response);
      // Code 26: the key is valid but not granted this resource — a setting, not a revoked key.
      if (/code 26\)/.test(reason))
        throw new ShopApiError('prestashop', 'request_failed', reason, { status: status });
      throw new ShopApiError('prestashop', 'unauthorized', `the shop refused the Webservice key: ${reason}`);
    }
    if (status === 429 || status >= 500)
      throw new ShopApiError(
        'prestashop',
        'retry_later',
        `the shop answered ${status}: ${describeError(response)}`,
      );
    if (status < 200 || status >= 300)
      throw new ShopApiError(
        'prestashop',
        'request_failed',
        `${method} /api/${path}: ${describeError(response)}`,
        { status: status },
      );
    if (output === 'XML') return response.text;
    try {
      return JSON.parse(response.text);
    } catch {
      throw new ShopApiError(
        'prestashop',
        'retry_later',
        `${method} /api/${path}: the shop's answer is not JSON`,
      );
    }
  }

  return {
    get: (shopUrl: string, key: string, path: string, query: Query = {}) =>
      call(shopUrl, key, 'GET', path, query),
    /**
     * What the key may do, from the Webservice's root (`GET /api/`): each resource it is granted and
     * its methods (`<orders xlink:href="…" get="true" put="false" post="false" …>`). Read in XML, the
     * format PrestaShop documents this listing in.
     */
    async permissions(shopUrl: string, key: string): Promise<Map<string, Set<string>>> {
      const xml = String(await call(shopUrl, key, 'GET', '', {}, undefined, 'XML'));
      const granted = new Map<string, Set<string>>();
      // Every element with method attributes, whatever their order (a description repeats its resource's).
      for (const [, name, attributes] of xml.matchAll(/<([a-z_]+)((?:\s+[\w:-]+="[^"]*")+)\s*\/?>/g)) {
        if (granted.has(name!) || !/\sget="/.test(attributes!)) continue;
        const methods = new Set<string>();
        for (const [, method, value] of attributes!.matchAll(/\b(get|put|post|patch|delete|head)="(\w+)"/g))
          if (value === 'true') methods.add(method!.toUpperCase());
        granted.set(name!, methods);
      }
      return granted;
    },
    /** PUT replaces the whole object: send every field read by a GET, changed ones changed. */
    put: (shopUrl: string, key: string, path: string, xml: string) =>
      call(shopUrl, key, 'PUT', path, {}, xml),
    post: (shopUrl: string, key: string, path: string, xml: string, query: Query = {}) =>
      call(shopUrl, key, 'POST', path, query, xml),
  };
}

export type PrestaShopWebservice = ReturnType<typeof prestashopWebservice>;
