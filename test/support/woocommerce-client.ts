import type { ApiKey } from './fake-woocommerce/state.ts';

/** One call to a (fake) WooCommerce REST API with a key pair as HTTP Basic, as the bridge will make it. */
export async function wcRequest(
  storeUrl: string,
  path: string,
  init: { method?: string; body?: unknown; auth: ApiKey | null },
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.auth)
    headers.authorization = `Basic ${Buffer.from(`${init.auth.consumerKey}:${init.auth.consumerSecret}`).toString('base64')}`;
  const response = await fetch(`${storeUrl}/wp-json${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON (the maintenance page)
  }
  return { status: response.status, headers: response.headers, text, json };
}
