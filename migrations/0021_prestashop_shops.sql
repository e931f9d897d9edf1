-- The PrestaShop connector: shops link with a per-shop push secret and, optionally, a Webservice key
-- (both encrypted in connector_connections.credentials). What the bridge keeps per shop beside them.

-- The platforms the connectors serve (WooCommerce's migration widens the same list to the same set).
ALTER TABLE connector_connections DROP CONSTRAINT IF EXISTS connector_connections_platform_check;
ALTER TABLE connector_connections ADD CONSTRAINT connector_connections_platform_check
  CHECK (platform IN ('shopify', 'woocommerce', 'prestashop'));

CREATE TABLE prestashop_shops (
  connection_id      text PRIMARY KEY REFERENCES connector_connections (id),
  -- The Webservice poll (the safety net for lost pushes) runs only when a Webservice key was given.
  poll_enabled       boolean NOT NULL,
  -- PS_TIMEZONE: PrestaShop stores and filters dates as the shop's wall-clock time.
  time_zone          text CHECK (length(time_zone) <= 64),
  -- The high-water mark: the latest orders.date_upd the poll has processed, in the shop's wall-clock
  -- time (`YYYY-MM-DD HH:MM:SS`, the format its filters compare).
  polled_through     text CHECK (polled_through ~ '^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$'),
  last_polled_at     timestamptz,
  -- The shop's "delivered" order state (PS_OS_DELIVERED), found when the key is given.
  delivered_state_id integer CHECK (delivered_state_id > 0),
  created_at         timestamptz NOT NULL
);
CREATE INDEX prestashop_shops_poll_idx ON prestashop_shops (last_polled_at) WHERE poll_enabled;
