-- Couriers and their rounds (SPEC §10). Couriers are the operator's people, not a brand's: their
-- own table and sessions (same machinery as the account area: the session id is the SHA-256 of a
-- secret that exists only in the phone's cookie), so nothing a courier holds opens a brand's area.
CREATE TABLE couriers (
  id            text PRIMARY KEY CHECK (id ~ '^cou_[0-9a-f]{16}$'),
  email         text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  phone         text,
  password_hash text NOT NULL,
  locale        text NOT NULL DEFAULT 'fr' CHECK (locale IN ('fr', 'en')),
  disabled_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX couriers_email_idx ON couriers (lower(email));

CREATE TABLE courier_sessions (
  id           bytea PRIMARY KEY CHECK (length(id) = 32),
  courier_id   text NOT NULL REFERENCES couriers (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  csrf_token   text NOT NULL
);
CREATE INDEX courier_sessions_courier_idx ON courier_sessions (courier_id);

-- A round: one courier's day, named after the sort codes it covers (planned by `dlv rounds plan`
-- or given whole by an external planner through the ops API). A round without a courier is
-- planned but not yet assigned.
CREATE TABLE rounds (
  id         text PRIMARY KEY CHECK (id ~ '^rnd_[0-9a-f]{16}$'),
  round_date date NOT NULL,
  name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  courier_id text REFERENCES couriers (id),
  sort_codes text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (round_date, name),
  UNIQUE (id, round_date)
);
CREATE INDEX rounds_courier_date_idx ON rounds (courier_id, round_date);

-- A round's stops in the order the courier makes them (the planner puts the pickups first, then
-- the deliveries; the operator may reorder). A pickup or a parcel is on one round a day: the
-- round's date is repeated here so the database holds that rule.
CREATE TABLE round_stops (
  round_id   text NOT NULL,
  round_date date NOT NULL,
  position   integer NOT NULL CHECK (position >= 1),
  kind       text NOT NULL CHECK (kind IN ('pickup', 'delivery')),
  pickup_id  text REFERENCES pickups (id),
  order_id   bigint REFERENCES orders (id),
  PRIMARY KEY (round_id, position) DEFERRABLE INITIALLY IMMEDIATE,
  FOREIGN KEY (round_id, round_date) REFERENCES rounds (id, round_date) ON DELETE CASCADE,
  CHECK ((kind = 'pickup') = (pickup_id IS NOT NULL)),
  CHECK ((kind = 'delivery') = (order_id IS NOT NULL)),
  UNIQUE (round_date, pickup_id),
  UNIQUE (round_date, order_id)
);
CREATE INDEX round_stops_order_idx ON round_stops (order_id) WHERE order_id IS NOT NULL;
