-- Brands (tenants) and their API keys. Keys are stored only as SHA-256 digests.
CREATE TABLE brands (
  id                     text PRIMARY KEY CHECK (id ~ '^brd_[0-9a-f]{16}$'),
  name                   text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  default_pickup_address text CHECK (length(default_pickup_address) <= 500),
  created_at             timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id           text PRIMARY KEY CHECK (id ~ '^key_[0-9a-f]{16}$'),
  brand_id     text NOT NULL REFERENCES brands (id),
  key_hash     bytea NOT NULL UNIQUE CHECK (length(key_hash) = 32),
  prefix       text NOT NULL,
  scopes       text[] NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz,
  last_used_at timestamptz
);

CREATE INDEX api_keys_brand_idx ON api_keys (brand_id, created_at);
