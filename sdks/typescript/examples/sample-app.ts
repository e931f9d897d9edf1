// A brand's checkout integration, as a developer would write it: type-checked with `tsc --strict`
// (test/sdk-typescript.test.ts) so that the SDK's types serve real code.
import { DlvClient, isApiError, type OrderSummary, verifyWebhook } from '../src/index.js';

const client = new DlvClient({
  apiKey: 'dlv_0000000000000000000000000000000000000000000000000000000000000000',
});

export async function shipCart(email: string, address: string): Promise<string | null> {
  try {
    const created = await client.createOrder({
      customer_email: email,
      delivery_address: address,
      delivery_recipient: 'Jane Doe',
      delivery_phone: '06 12 34 56 78',
      amount_eur: 49.9,
    });
    return created.order.tracking_ref;
  } catch (error) {
    if (isApiError(error, 'out_of_zone')) return null;
    throw error;
  }
}

export async function pendingOrders(): Promise<OrderSummary[]> {
  const orders: OrderSummary[] = [];
  for await (const order of client.iterateOrders({ status: 'pending', limit: 100 })) orders.push(order);
  return orders;
}

export async function onWebhook(secret: string, body: string, headers: Headers): Promise<string> {
  const event = await verifyWebhook(secret, body, headers);
  return event.type;
}

/** An integration's own test, in test mode: a test order driven to the door (webhooks fire). */
export async function deliverTestOrder(testKey: string, trackingRef: string): Promise<boolean> {
  const sandbox = new DlvClient({ apiKey: testKey });
  if (!sandbox.testMode) throw new Error('a test key (dlv_test_…) is needed');
  const { order } = await sandbox.simulate(trackingRef, 'delivered');
  return order.status === 'delivered' && !order.livemode;
}
