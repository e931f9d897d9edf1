-- Webhook endpoints (added by the operator for a brand), one delivery per event and endpoint, and
-- the log of every HTTP attempt. Events themselves are in webhook_events (0003).

CREATE TABLE webhook_endpoints (
  id                         text PRIMARY KEY CHECK (id ~ '^whk_[0-9a-f]{16}$'),
  brand_id                   text NOT NULL REFERENCES brands (id),
  url                        text NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
  event_types                text[] NOT NULL CHECK (cardinality(event_types) > 0),
  secret                     text NOT NULL,
  -- Rotation: the previous secret keeps signing (a second signature) until it expires, so
  -- receivers can switch without dropping a delivery.
  previous_secret            text,
  previous_secret_expires_at timestamptz,
  status                     text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  disabled_reason            text,
  disabled_at                timestamptz,
  -- Start of the current run of failed attempts (null after a success): the 5-day disabling rule.
  first_failure_at           timestamptz,
  created_at                 timestamptz NOT NULL,
  updated_at                 timestamptz NOT NULL,
  CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL))
);
CREATE INDEX webhook_endpoints_brand_idx ON webhook_endpoints (brand_id, created_at);

CREATE TABLE webhook_deliveries (
  -- Random rather than sequential so that ids shown to the operator reveal no volume.
  id              text PRIMARY KEY
                    DEFAULT ('whd_' || substr(md5(random()::text || clock_timestamp()::text), 1, 16))
                    CHECK (id ~ '^whd_[0-9a-f]{16}$'),
  event_id        text NOT NULL REFERENCES webhook_events (id),
  endpoint_id     text NOT NULL REFERENCES webhook_endpoints (id),
  -- 'fan_out': the delivery an event gets once per endpoint; 'replay': one the operator asked for.
  origin          text NOT NULL DEFAULT 'fan_out' CHECK (origin IN ('fan_out', 'replay')),
  replay_of       text REFERENCES webhook_deliveries (id),
  -- pending: not tried yet; failed: last attempt failed, next one at next_attempt_at;
  -- succeeded; exhausted: no further attempt (schedule over, or endpoint disabled).
  status          text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'succeeded', 'failed', 'exhausted')),
  attempt_count   integer NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
  next_attempt_at timestamptz,
  last_status     integer,
  last_error      text,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  CHECK ((status IN ('pending', 'failed')) = (next_attempt_at IS NOT NULL))
);
-- Fan-out is idempotent: a re-run of the job for the same event creates no second delivery.
CREATE UNIQUE INDEX webhook_deliveries_event_endpoint_key ON webhook_deliveries (event_id, endpoint_id)
  WHERE origin = 'fan_out';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
-- The recovery sweep looks only at deliveries still owed an attempt.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
  WHERE status IN ('pending', 'failed');

CREATE TABLE webhook_attempts (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id      text NOT NULL REFERENCES webhook_deliveries (id),
  attempt          integer NOT NULL CHECK (attempt >= 1),
  started_at       timestamptz NOT NULL,
  duration_ms      integer NOT NULL CHECK (duration_ms >= 0),
  response_status  integer,
  response_excerpt text NOT NULL DEFAULT '',
  error            text,
  UNIQUE (delivery_id, attempt)
);
