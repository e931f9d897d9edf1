import { inboxJob } from '../../connector-jobs.ts';
import type { ShopifyConnector } from '../shopify-connector.ts';
import { SHOPIFY_PROCESS_WEBHOOK_SPEC } from './names.ts';

/** What this job uses. */
type Context = { shopify: Pick<ShopifyConnector, 'inbox'> | null };

/** One webhook Shopify sent: an order to create or cancel, an uninstall, a privacy request. */
export const SHOPIFY_PROCESS_WEBHOOK = inboxJob(
  SHOPIFY_PROCESS_WEBHOOK_SPEC,
  'shopify webhook',
  (deps: Context) => deps.shopify?.inbox ?? null,
  'the Shopify connector is not configured (SHOPIFY_API_KEY)',
);
