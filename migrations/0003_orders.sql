-- Delivery orders, their status history, the events that feed webhooks, and Idempotency-Keys.

CREATE TABLE orders (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tracking_ref         text NOT NULL UNIQUE CHECK (tracking_ref ~ '^DLV-[0-9A-HJKMNP-TV-Z]{10}$'),
  brand_id             text NOT NULL REFERENCES brands (id),
  status               text NOT NULL CHECK (status IN ('awaiting_address', 'pending', 'picked_up', 'in_transit',
                         'out_for_delivery', 'failed_attempt', 'delivered', 'returned', 'cancelled')),
  reference            text CHECK (length(reference) <= 100),
  customer_email       text NOT NULL,
  amount_cents         bigint CHECK (amount_cents >= 0),
  pickup_address       text,
  delivery_address     text,
  delivery_postcode    text,
  delivery_city        text,
  delivery_zone        text CHECK (delivery_zone IN ('paris', 'petite_couronne', 'grande_couronne')),
  delivery_recipient   text,
  delivery_phone       text,
  delivery_email       text,
  service              text NOT NULL CHECK (service IN ('express', 'standard', 'economy')),
  unit_type            text NOT NULL CHECK (unit_type IN ('parcel', 'envelope', 'bulky', 'pallet')),
  quantity             integer NOT NULL CHECK (quantity BETWEEN 1 AND 1000),
  unit_weight_grams    integer NOT NULL CHECK (unit_weight_grams > 0),
  price_excl_tax_cents integer CHECK (price_excl_tax_cents >= 0),
  vat_cents            integer CHECK (vat_cents >= 0),
  price_cents          integer CHECK (price_cents >= 0),
  promised_date        date,
  -- Set when the order first leaves `pending`: billing excludes orders cancelled before pickup.
  picked_up_at         timestamptz,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  -- An order awaiting its address has no zone, price or date yet; every other one has all three.
  CHECK (status IN ('awaiting_address', 'cancelled')
         OR (delivery_zone IS NOT NULL AND price_cents IS NOT NULL AND promised_date IS NOT NULL))
);

-- Keyset pagination, newest first, with and without a status filter.
CREATE INDEX orders_brand_created_idx ON orders (brand_id, created_at DESC, id DESC);
CREATE INDEX orders_brand_status_created_idx ON orders (brand_id, status, created_at DESC, id DESC);

CREATE TABLE order_events (
  id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders (id),
  status   text NOT NULL,
  note     text,
  at       timestamptz NOT NULL
);
CREATE INDEX order_events_order_idx ON order_events (order_id, id);

-- One row per notification-worthy event, written in the transaction that causes it; its id is the
-- Standard Webhooks `webhook-id`, the same on every delivery attempt and replay.
CREATE TABLE webhook_events (
  id         text PRIMARY KEY,
  seq        bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  brand_id   text NOT NULL REFERENCES brands (id),
  type       text NOT NULL CHECK (type IN ('order.created', 'order.status_changed', 'invoice.issued')),
  data       jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_events_brand_created_idx ON webhook_events (brand_id, created_at);

-- Idempotency-Keys: the first response to a key, stored in the transaction that produced it, so a
-- key is either absent or complete. Concurrent use of one key is serialised by an advisory lock.
CREATE TABLE idempotency_keys (
  brand_id      text NOT NULL REFERENCES brands (id),
  key           text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  request_hash  bytea NOT NULL,
  status_code   integer NOT NULL,
  response_body jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (brand_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
