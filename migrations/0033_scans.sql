-- Scans (SPEC §10). The phone chooses each scan's id (a UUID), so a scan sent again by an offline
-- queue is answered from here and applied once; `happened_at` is the phone's time, the one the
-- order's history shows. A refused scan is kept too (what it was refused for), so a replay gets
-- the same answer; it changed nothing else.
CREATE TABLE scans (
  id           uuid PRIMARY KEY,
  -- Null when the operator sends scans through the ops API for couriers using another app.
  courier_id   text REFERENCES couriers (id),
  round_id     text REFERENCES rounds (id),
  context      text NOT NULL CHECK (context IN ('pickup', 'hub', 'loading', 'door')),
  code         text NOT NULL CHECK (length(code) BETWEEN 1 AND 200),
  order_id     bigint REFERENCES orders (id),
  outcome      text CHECK (outcome IN ('delivered', 'failed_attempt')),
  reason       text CHECK (reason IN ('absent', 'refused', 'address_not_found', 'no_access', 'damaged')),
  happened_at  timestamptz NOT NULL,
  received_at  timestamptz NOT NULL DEFAULT now(),
  result       text NOT NULL CHECK (result IN ('applied', 'refused')),
  -- The order's status once the scan was applied; for a refused scan, the error code and message.
  status_after text,
  problem      text,
  message      text,
  CHECK ((context = 'door') = (outcome IS NOT NULL)),
  CHECK (reason IS NULL OR outcome = 'failed_attempt'),
  CHECK (outcome IS DISTINCT FROM 'failed_attempt' OR reason IS NOT NULL),
  CHECK ((result = 'refused') = (problem IS NOT NULL))
);
CREATE INDEX scans_order_idx ON scans (order_id, happened_at) WHERE order_id IS NOT NULL;
CREATE INDEX scans_courier_idx ON scans (courier_id, received_at);
