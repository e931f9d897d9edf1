-- Shop connectors (Shopify first; WooCommerce and PrestaShop reuse these tables): a brand's link to
-- a shop, the webhooks the shop sent us (deduplicated), the shop orders that became delivery orders,
-- what could not be synced (problems), and the OAuth installs under way.

CREATE TABLE connector_connections (
  id              text PRIMARY KEY CHECK (id ~ '^con_[0-9a-f]{16}$'),
  brand_id        text NOT NULL REFERENCES brands (id),
  platform        text NOT NULL CHECK (platform IN ('shopify')),
  shop            text NOT NULL CHECK (length(shop) BETWEEN 1 AND 255),
  -- active: syncing; broken: the shop refused our credentials (401), nothing is retried until it is
  -- linked again; disconnected: uninstalled or disconnected, credentials erased.
  status          text NOT NULL CHECK (status IN ('active', 'broken', 'disconnected')),
  status_reason   text CHECK (length(status_reason) <= 500),
  -- AES-256-GCM of the shop's access token (CONNECTOR_SECRET_KEY); NULL once disconnected.
  credentials     bytea,
  scopes          text NOT NULL DEFAULT '',
  -- ours: only orders whose shipping line is one of our services; all: every order with a shipping address.
  order_filter    text NOT NULL DEFAULT 'ours' CHECK (order_filter IN ('ours', 'all')),
  notify_customer boolean NOT NULL DEFAULT true,
  -- What we registered on the shop (webhook subscription and carrier service ids), to remove on disconnect.
  remote_ids      jsonb NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  disconnected_at timestamptz,
  CHECK ((status = 'disconnected') = (credentials IS NULL))
);
-- One live link per shop: a shop's webhooks and rate requests must name exactly one brand.
CREATE UNIQUE INDEX connector_connections_live_shop_idx
  ON connector_connections (platform, shop) WHERE status <> 'disconnected';
CREATE INDEX connector_connections_brand_idx ON connector_connections (brand_id, created_at);

-- The shop → brand lookups (rates at checkout, the outbox subscriber) are cached by every instance,
-- which drop their copy when this version changes.
INSERT INTO cache_versions (name) VALUES ('connector_connections');
CREATE FUNCTION bump_connector_connections_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cache_versions SET version = version + 1 WHERE name = 'connector_connections';
  RETURN NULL;
END $$;
CREATE TRIGGER connector_connections_cache
  AFTER INSERT OR DELETE OR UPDATE OF brand_id, shop, status ON connector_connections
  FOR EACH STATEMENT EXECUTE FUNCTION bump_connector_connections_version();

-- Every webhook a shop sent, stored as received (raw text: Shopify ids exceed 2^53) before it is
-- processed by a job. The platform's delivery id makes a redelivery a no-op.
CREATE TABLE connector_inbox (
  id            bigserial PRIMARY KEY,
  platform      text NOT NULL,
  delivery_id   text NOT NULL CHECK (length(delivery_id) BETWEEN 1 AND 200),
  shop          text NOT NULL,
  topic         text NOT NULL CHECK (length(topic) BETWEEN 1 AND 100),
  -- The shop order it is about (a gid), so a customer's redaction can find its payloads.
  external_order_id text,
  -- Erased (NULL) by redact requests, and once processed for privacy topics.
  payload       text,
  received_at   timestamptz NOT NULL,
  processed_at  timestamptz,
  outcome       text CHECK (length(outcome) <= 500)
);
CREATE UNIQUE INDEX connector_inbox_delivery_idx ON connector_inbox (platform, delivery_id);
CREATE INDEX connector_inbox_shop_idx ON connector_inbox (platform, shop, received_at);

-- A shop order that became a delivery order: written in the transaction that creates the order,
-- so a duplicated or concurrent webhook can never make a second one.
CREATE TABLE connector_orders (
  connection_id  text NOT NULL REFERENCES connector_connections (id),
  external_id    text NOT NULL CHECK (length(external_id) BETWEEN 1 AND 200),
  external_name  text,
  order_id       bigint NOT NULL REFERENCES orders (id),
  tracking_ref   text NOT NULL,
  -- The shop's fulfillment carrying our tracking, once created (status events are added to it).
  fulfillment_id text,
  created_at     timestamptz NOT NULL,
  PRIMARY KEY (connection_id, external_id)
);
CREATE UNIQUE INDEX connector_orders_order_idx ON connector_orders (order_id);

-- What could not be synced (an address out of zone, an unpriceable load, an order already picked
-- up when the shop cancels it, a customer's data request…): shown to the brand and the operator,
-- never an error for the shop. One row per order and kind, however often the webhook comes.
CREATE TABLE connector_problems (
  id            text PRIMARY KEY CHECK (id ~ '^cpb_[0-9a-f]{16}$'),
  connection_id text NOT NULL REFERENCES connector_connections (id),
  brand_id      text NOT NULL REFERENCES brands (id),
  kind          text NOT NULL CHECK (kind IN ('out_of_zone', 'invalid_address', 'unpriceable',
                  'invalid_order', 'not_cancellable', 'sync_failed', 'data_request')),
  external_id   text NOT NULL DEFAULT '',
  external_name text,
  message       text NOT NULL CHECK (length(message) <= 2000),
  created_at    timestamptz NOT NULL
);
CREATE UNIQUE INDEX connector_problems_once_idx ON connector_problems (connection_id, external_id, kind);
CREATE INDEX connector_problems_brand_idx ON connector_problems (brand_id, created_at DESC);

-- OAuth installs under way: the `state` nonce sent to the shop, bound to the person who started it
-- (and to their browser by a cookie), single use, short-lived.
CREATE TABLE connector_installs (
  state      text PRIMARY KEY CHECK (length(state) = 43),
  platform   text NOT NULL,
  shop       text NOT NULL,
  brand_id   text NOT NULL REFERENCES brands (id),
  user_id    text REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
