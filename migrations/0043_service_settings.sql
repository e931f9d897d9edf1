-- What one process of a deployment records for the others (issue #36). `public_base_url`: the
-- PUBLIC_BASE_URL an API instance serves under, written when it starts, read by `dlv` and the
-- workers that are given none, so that every link written into events, e-mails and SMS names the
-- address the API has, never a loopback default. A new table: nothing else changes.
CREATE TABLE service_settings (
  name       text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_]{0,62}$'),
  value      text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
