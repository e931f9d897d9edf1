-- Greenhouse gases per delivery (Code des transports L1431-3, D1431-1 to -23; SPEC §14, issue 41;
-- docs/emissions.md): each delivered or returned order's CO₂e, the data it was computed from, and
-- when, so the monthly statement per brand sums stored figures.
--
-- Expand only: the previous release's statements name none of these columns, and their defaults
-- (nothing computed) are what an order it writes means. Its orders delivered meanwhile are given
-- their figure by `dlv emissions recompute --period`.

CREATE DOMAIN order_co2e_grams AS integer CONSTRAINT orders_co2e_grams_check
  CHECK (VALUE >= 0);
CREATE DOMAIN order_co2e_data_level AS smallint CONSTRAINT orders_co2e_data_level_check
  CHECK (VALUE BETWEEN 1 AND 4);

ALTER TABLE orders
  -- Grams of CO₂e, well to wheel (src/domain/emissions/); all of these or none.
  ADD COLUMN co2e_grams order_co2e_grams,
  -- The decree's data level (1 default values … 4 measured).
  ADD COLUMN co2e_data_level order_co2e_data_level,
  -- The method's identifier (emission-method.ts): allocation rule and factor table's version.
  ADD COLUMN co2e_method text CHECK (length(co2e_method) <= 80),
  -- The vehicle kind whose factor was used (the last round's, or the default one).
  ADD COLUMN co2e_vehicle text CHECK (length(co2e_vehicle) <= 40),
  -- The order's share of its rounds' distance, metres (the statement's distance).
  ADD COLUMN co2e_distance_m integer CHECK (co2e_distance_m >= 0),
  -- When the order was delivered or returned: the statement's month.
  ADD COLUMN co2e_at timestamptz;

-- The monthly statement reads a brand's month of figures.
CREATE INDEX orders_co2e_brand_at_idx ON orders (brand_id, co2e_at) WHERE co2e_at IS NOT NULL;
