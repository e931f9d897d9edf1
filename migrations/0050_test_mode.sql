-- Test mode (issue 40, docs/test-mode.md): a brand's test data lives beside its live data in a
-- test twin, a brand row of its own pointing at the live brand. Every brand-scoped query (lists,
-- search, the change feed, webhooks, labels) then keeps test and live apart with no filter of
-- its own; what must reach the live brand's settings (its grid, name, pickup address) follows
-- `live_brand_id`. Test keys belong to the twin.
--
-- Expand only: the previous release never writes a twin, and its orders are live (the default).
ALTER TABLE brands ADD COLUMN live_brand_id text UNIQUE REFERENCES brands (id) ON DELETE CASCADE
  CHECK (live_brand_id <> id);

-- Denormalised from the brand at creation: the dispatching queries (rounds, scans, pickups) read
-- orders of every brand and refuse test ones on this column, and the order's JSON shows it.
ALTER TABLE orders ADD COLUMN livemode boolean NOT NULL DEFAULT true;
