-- The account area: people of a brand, their sessions, one-time e-mail tokens, and the audit log
-- of API key changes. Session ids and one-time tokens are SHA-256 digests of secrets that exist
-- only in the browser's cookie or the e-mailed link.
ALTER TABLE brands ADD COLUMN disabled_at timestamptz;

CREATE TABLE users (
  id                text PRIMARY KEY CHECK (id ~ '^usr_[0-9a-f]{16}$'),
  brand_id          text NOT NULL REFERENCES brands (id),
  email             text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  password_hash     text NOT NULL,
  role              text NOT NULL CHECK (role IN ('owner', 'developer', 'finance')),
  email_verified_at timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_idx ON users (lower(email));
CREATE INDEX users_brand_idx ON users (brand_id);

CREATE TABLE sessions (
  id           bytea PRIMARY KEY CHECK (length(id) = 32),
  user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  step_up_at   timestamptz,
  csrf_token   text NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE user_tokens (
  hash       bytea PRIMARY KEY CHECK (length(hash) = 32),
  user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose    text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password', 'invite')),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_tokens_user_idx ON user_tokens (user_id, purpose);

ALTER TABLE api_keys
  ADD COLUMN name text CHECK (length(name) BETWEEN 1 AND 100),
  ADD COLUMN created_by_user_id text REFERENCES users (id);

CREATE TABLE key_events (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  brand_id   text NOT NULL REFERENCES brands (id),
  key_id     text NOT NULL REFERENCES api_keys (id),
  user_id    text REFERENCES users (id),
  action     text NOT NULL CHECK (action IN ('created', 'revoked')),
  ip         text CHECK (length(ip) <= 64),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX key_events_brand_idx ON key_events (brand_id, created_at DESC);
