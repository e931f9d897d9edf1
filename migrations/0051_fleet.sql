-- The fleet and optimised rounds (issue 37; docs/planning.md): the hubs rounds start and end at,
-- the vehicles (what they carry), each courier's shift and vehicle for a day, and what the
-- optimiser planned (the vehicle of a round, its distances, each stop's planned arrival).
--
-- Expand only: the previous release's statements name none of these tables or columns, and the
-- defaults (no vehicle, no distance, version 1, nothing pinned) are what its rounds mean.

-- A hub (depot): where the parcels are loaded and the rounds start and end. WGS 84 degrees.
CREATE TABLE hubs (
  id          text PRIMARY KEY CHECK (id ~ '^hub_[0-9a-f]{16}$'),
  name        text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
  address     text NOT NULL CHECK (length(address) BETWEEN 1 AND 500),
  lat         double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
  lng         double precision NOT NULL CHECK (lng BETWEEN -180 AND 180),
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- A vehicle: its kind (how it moves: src/domain/fleet/fleet.ts), what it carries, its hub.
-- A disabled vehicle keeps its past rounds but takes no new shift.
CREATE TABLE vehicles (
  id                text PRIMARY KEY CHECK (id ~ '^veh_[0-9a-f]{16}$'),
  name              text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
  kind              text NOT NULL CHECK (kind IN ('cargo_bike', 'van', 'electric_van', 'on_foot')),
  capacity_parcels  integer NOT NULL CHECK (capacity_parcels BETWEEN 1 AND 100000),
  capacity_kg       numeric(8, 1) NOT NULL CHECK (capacity_kg > 0 AND capacity_kg <= 100000),
  hub_id            text NOT NULL REFERENCES hubs (id),
  disabled_at       timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now()
);

-- A courier's shift on a day (Paris wall-clock times) and the vehicle they drive: one a day.
CREATE TABLE courier_shifts (
  courier_id  text NOT NULL REFERENCES couriers (id),
  shift_date  date NOT NULL,
  starts_at   time NOT NULL,
  ends_at     time NOT NULL,
  vehicle_id  text NOT NULL REFERENCES vehicles (id),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (courier_id, shift_date),
  CHECK (ends_at > starts_at),
  -- A vehicle is driven by one courier a day.
  UNIQUE (shift_date, vehicle_id)
);

-- What the optimiser planned, and the round's version for the operator's concurrent edits: each
-- change of a round (its stops, courier, pins) adds one; an edit naming an older version is refused.
ALTER TABLE rounds
  ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  ADD COLUMN vehicle_id text REFERENCES vehicles (id),
  -- Planned distance from the hub back to it, metres (the CO₂ figures' input).
  ADD COLUMN planned_distance_m integer CHECK (planned_distance_m >= 0),
  -- Planned time on the road, seconds.
  ADD COLUMN planned_duration_s integer CHECK (planned_duration_s >= 0),
  -- Which optimiser planned it (`in-process`, `vroom`); null: by sort code or by hand.
  ADD COLUMN planned_by text CHECK (length(planned_by) <= 40);

ALTER TABLE round_stops
  -- When the courier is planned at the door (null: not optimised).
  ADD COLUMN planned_arrival timestamptz,
  -- Metres from the previous stop (the hub for the first): this stop's share of the distance.
  ADD COLUMN leg_distance_m integer CHECK (leg_distance_m >= 0),
  -- Pinned by the operator: re-optimising keeps it on this round, in this order among the pins.
  ADD COLUMN pinned boolean NOT NULL DEFAULT false;
