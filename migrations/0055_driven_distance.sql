-- The distance a round was actually driven (issue 41; docs/emissions.md, "Driven distance"): once
-- every delivery stop of a round has its outcome, the distance from the hub through the stops in
-- the order they were delivered and back, read through the travel-times port (OSRM, else the
-- estimate), and each stop's place in that order and the leg that reached it. The CO₂e then uses it
-- instead of the planned distance, and says so by its data level (3).
--
-- Expand only: the previous release's statements name none of these columns; null (not finished,
-- or finished before this release) is what its rounds mean, and their figures keep the planned
-- distance until `dlv emissions recompute`.

ALTER TABLE rounds
  -- Metres, hub to hub, in the delivered order; null until the round is finished.
  ADD COLUMN driven_distance_m integer CHECK (driven_distance_m >= 0),
  -- When it was stored.
  ADD COLUMN driven_at timestamptz,
  ADD CHECK ((driven_distance_m IS NULL) = (driven_at IS NULL));

ALTER TABLE round_stops
  -- The stop's place in the delivered order (1 = delivered first); null for a stop not driven to
  -- (cancelled, or no known place).
  ADD COLUMN driven_position integer CHECK (driven_position >= 1),
  -- Metres of the leg that reached the stop (from the hub or the stop delivered before it): the
  -- stop's share of the driven distance (the last leg, back to the hub, is the round's alone).
  ADD COLUMN driven_leg_m integer CHECK (driven_leg_m >= 0);

-- The recurring job looks for recent rounds with a vehicle and no driven distance yet.
CREATE INDEX rounds_not_driven_idx ON rounds (round_date) WHERE driven_distance_m IS NULL AND vehicle_id IS NOT NULL;
