-- Secrets the service generates for itself and every instance must share, e.g. the key of the
-- lists' cursors when CURSOR_SECRET is not configured: the first instance to need one stores it,
-- the others (and later restarts) read the same. Written once, never updated.
CREATE TABLE server_secrets (
  name       text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_]{0,62}$'),
  value      bytea NOT NULL CHECK (octet_length(value) >= 32),
  created_at timestamptz NOT NULL DEFAULT now()
);
