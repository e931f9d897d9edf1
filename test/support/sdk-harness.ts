import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type LiveApi, startLiveApi } from './live-api.ts';
import { VALID_ORDER } from './orders.ts';
import { type Receiver, startReceiver } from './webhook-receiver.ts';

/**
 * What the PHP and Python SDKs' own tests need from a running API (their environment): the base URL,
 * two brands' test keys (`dlv_test_…`: test mode, as a developer integrates) with no order yet (one
 * for the round trip and simulation, one for the retry test, which counts its orders), the first
 * brand's live key (which may not simulate), and a real webhook delivery to a test endpoint — its
 * secret, raw body and headers in a JSON file — made by the API to a loopback receiver, for the
 * SDK's verification helper.
 */
export async function startSdkHarness(name: string) {
  const api: LiveApi = await startLiveApi();
  let receiver: Receiver | undefined;
  try {
    receiver = await startReceiver();
    const brand = await api.brand({ name: `Maison SDK ${name}` });
    const testKey = await api.testKey(brand);
    const retryKey = await api.testKey(await api.brand({ name: `Maison SDK ${name} retries` }));
    const hooks = await api.testKey(await api.brand({ name: `Maison SDK ${name} webhooks` }));
    const post = async (url: string, body: object) => {
      const response = await fetch(`${api.base}${url}`, {
        method: 'POST',
        headers: { ...hooks.headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
      return (await response.json()) as Record<string, any>;
    };
    const { secret } = await post('/webhook-subscriptions', {
      url: receiver.url('/sdk'),
      event_types: ['order.created'],
    });
    await post('/orders', VALID_ORDER);
    await receiver.waitFor(1, 20_000);
    const hook = receiver.received[0]!;
    const fixture = path.join(os.tmpdir(), `dlv-sdk-webhook-${process.pid}-${name}.json`);
    writeFileSync(fixture, JSON.stringify({ secret, body: hook.body, headers: hook.headers }));
    const env = {
      DLV_BASE_URL: api.base,
      DLV_API_KEY: testKey.key,
      DLV_LIVE_API_KEY: brand.key,
      DLV_RETRY_API_KEY: retryKey.key,
      DLV_WEBHOOK_FIXTURE: fixture,
    };
    const opened = receiver;
    return {
      env,
      async close() {
        await opened.close();
        await api.close();
      },
    };
  } catch (error) {
    await receiver?.close();
    await api.close();
    throw error;
  }
}
