-- Arrival times (SPEC §11, issue 37; docs/arrival-times.md): each delivery's estimated arrival on
-- its round, the two-hour window its recipient was told, and the couriers' positions they agreed to
-- share while a round is in progress.
--
-- Expand only: new tables and a column whose default (not sharing) is what the previous release means.

-- One row per order on a round that has left (its first loading scan): rewritten at each estimate.
-- `window_start`/`window_end` move only when the estimate moves by 30 minutes or more (then
-- `order.eta_changed`); `eta` follows every scan, door event and shared position.
CREATE TABLE order_arrivals (
  order_id     bigint PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
  round_id     text NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
  eta          timestamptz NOT NULL,
  window_start timestamptz NOT NULL,
  window_end   timestamptz NOT NULL CHECK (window_end > window_start),
  -- Delivery stops before this one on the round not yet delivered nor failed.
  stops_before integer NOT NULL CHECK (stops_before >= 0),
  -- When the window was first given (the round's departure) and the estimate last computed.
  announced_at timestamptz NOT NULL,
  estimated_at timestamptz NOT NULL
);
CREATE INDEX order_arrivals_round_idx ON order_arrivals (round_id);

-- The courier's consent to share the phone's position during rounds (the app's toggle).
ALTER TABLE couriers ADD COLUMN shares_position_since timestamptz;

-- Positions shared while a round is in progress: at most one a minute a courier, kept 48 hours
-- (the purge_courier_positions job), never shown to a brand nor a recipient.
CREATE TABLE courier_positions (
  courier_id  text NOT NULL REFERENCES couriers (id) ON DELETE CASCADE,
  recorded_at timestamptz NOT NULL,
  round_id    text NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
  lat         double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
  lng         double precision NOT NULL CHECK (lng BETWEEN -180 AND 180),
  accuracy_m  integer CHECK (accuracy_m >= 0),
  PRIMARY KEY (courier_id, recorded_at)
);
CREATE INDEX courier_positions_recorded_idx ON courier_positions (recorded_at);
