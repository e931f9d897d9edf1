-- Webhook deliveries become their own queue (docs/decisions/0005-webhook-delivery-queue.md): a
-- worker claims due deliveries with a lease (a short UPDATE), sends them with no transaction open,
-- and records the outcomes afterwards; the lease token fences a late answer from a worker whose
-- lease ran out. A worker killed mid-send leaves a lease that expires: the delivery is claimable
-- again then, with no job lock to wait out.
ALTER TABLE webhook_deliveries
  ADD COLUMN lease_until timestamptz,
  ADD COLUMN lease_token text,
  ADD CONSTRAINT webhook_deliveries_lease_check CHECK ((lease_until IS NULL) = (lease_token IS NULL));

-- The claim walks the endpoints that are owed something (a loose index scan), then takes each
-- one's oldest due deliveries, up to its limit: one slow endpoint's backlog is never scanned
-- to reach another's.
CREATE INDEX webhook_deliveries_endpoint_due_idx ON webhook_deliveries (endpoint_id, next_attempt_at)
  WHERE status IN ('pending', 'failed');

-- Which job runners are alive: each process beats for its graphile-worker workers every few
-- seconds, so the jobs a killed process held are freed within a minute instead of graphile-worker's
-- four hours, and a live worker's job (whatever its age) is never taken from it.
CREATE TABLE worker_heartbeats (
  worker_id text PRIMARY KEY,
  beat_at   timestamptz NOT NULL
);
