-- Pickups (SPEC §10): one per brand, pickup address and business day. The id is derived from those
-- three (pickupIdFor, src/domain/pickups/pickup-day.ts), so an order joins its pickup by carrying
-- that id, written with the order's own INSERT, and the pickup's row is created by the same
-- statement (ON CONFLICT DO NOTHING: for every order but a day's first, one index probe). A row
-- also exists for a collection the brand asked for (requested_at) before any order joined it.
CREATE TABLE pickups (
  id             text PRIMARY KEY CHECK (id ~ '^pck_[0-9a-f]{16}$'),
  brand_id       text NOT NULL,
  pickup_address text NOT NULL,
  pickup_date    date NOT NULL,
  window_start   text NOT NULL DEFAULT '14:00' CHECK (window_start ~ '^[0-2][0-9]:[0-5][0-9]$'),
  window_end     text NOT NULL DEFAULT '18:00' CHECK (window_end ~ '^[0-2][0-9]:[0-5][0-9]$'),
  status         text NOT NULL DEFAULT 'planned'
                 CHECK (status IN ('planned', 'collected', 'partially_collected', 'missed')),
  requested_at   timestamptz,
  closed_at      timestamptz,
  -- What the closing found, kept as it was: the orders move on (the missing ones to the next pickup).
  collected_refs text[] NOT NULL DEFAULT '{}',
  missing_refs   text[] NOT NULL DEFAULT '{}',
  CHECK (window_start < window_end),
  CHECK ((status = 'planned') = (closed_at IS NULL))
);
CREATE INDEX pickups_brand_date_idx ON pickups (brand_id, pickup_date);

-- The pickup an order is to be collected by: set when it becomes collectable (created pending, or
-- its address completed), moved to the next business day's when it was not scanned, cleared when
-- it is cancelled. Kept once collected (the pickup that took it). Not in the order's JSON.
ALTER TABLE orders ADD COLUMN pickup_id text;
CREATE INDEX orders_pickup_idx ON orders (pickup_id) WHERE pickup_id IS NOT NULL;
