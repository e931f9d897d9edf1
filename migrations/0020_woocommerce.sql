-- WooCommerce (and the other polled platforms): links to shops that are not Shopify, the poll's
-- high-water mark, and the health a brand is shown (last sync, last error).

-- Every platform the service knows, so the bridges can be merged in any order.
ALTER TABLE connector_connections DROP CONSTRAINT IF EXISTS connector_connections_platform_check;
ALTER TABLE connector_connections
  ADD CONSTRAINT connector_connections_platform_check
  CHECK (platform IN ('shopify', 'woocommerce', 'prestashop'));

-- IF NOT EXISTS: the PrestaShop bridge may add the same generic columns in its own migration.
ALTER TABLE connector_connections
  -- The poll's high-water mark (for WooCommerce: the greatest date_modified_gmt it has stored, ISO
  -- UTC); orders modified after it, less an overlap, are fetched again by the next poll.
  ADD COLUMN IF NOT EXISTS sync_cursor    text CHECK (length(sync_cursor) <= 100),
  -- The last poll that reached the shop, and what went wrong since (null: healthy).
  ADD COLUMN IF NOT EXISTS last_synced_at timestamptz,
  ADD COLUMN IF NOT EXISTS sync_error     text CHECK (length(sync_error) <= 500),
  -- What the bridge learnt about the shop once and remembers (an extension absent, a webhook
  -- reactivated…): platform-specific, never a credential.
  ADD COLUMN IF NOT EXISTS sync_state     jsonb NOT NULL DEFAULT '{}',
  -- Shop order statuses that make a delivery order besides the paid one (a manual payment method
  -- the brand ships before payment, e.g. WooCommerce's `on-hold` for bank transfers).
  ADD COLUMN IF NOT EXISTS extra_statuses text[] NOT NULL DEFAULT '{}';

-- One-click key provisioning (WooCommerce's /wc-auth): the connection id is chosen when the
-- install starts (it is the `user_id` the shop sends back with the keys).
ALTER TABLE connector_installs ADD COLUMN IF NOT EXISTS connection_id text
  CHECK (connection_id ~ '^con_[0-9a-f]{16}$');
