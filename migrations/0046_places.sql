-- Places, not postcodes (SPEC §11, issue 37; docs/places.md, decision 0008): where each delivery
-- address is, how sure the service is of it, and a cache of addresses already placed.
--
-- Expand only: the previous release's statements name none of these columns, whose defaults (no
-- location, no warning) are what an order it writes means.

-- The order's location, one rule per column (domains, decision 0003): WGS 84 degrees, and where
-- the point comes from. Written together by the service (all four or none).
CREATE DOMAIN order_latitude AS double precision CONSTRAINT orders_delivery_lat_check
  CHECK (VALUE BETWEEN -90 AND 90);
CREATE DOMAIN order_longitude AS double precision CONSTRAINT orders_delivery_lng_check
  CHECK (VALUE BETWEEN -180 AND 180);
CREATE DOMAIN order_location_precision AS text CONSTRAINT orders_delivery_location_precision_check
  CHECK (VALUE IN ('rooftop', 'street', 'locality', 'postcode'));
CREATE DOMAIN order_location_source AS text CONSTRAINT orders_delivery_location_source_check
  CHECK (VALUE IN ('brand', 'geocoder', 'delivery', 'postcode'));

ALTER TABLE orders
  ADD COLUMN delivery_lat order_latitude,
  ADD COLUMN delivery_lng order_longitude,
  ADD COLUMN delivery_location_precision order_location_precision,
  ADD COLUMN delivery_location_source order_location_source,
  -- The address's flags: [{code, message}], as the order's JSON shows them.
  ADD COLUMN address_warnings jsonb NOT NULL DEFAULT '[]',
  -- Set while the geocoder's word on the address is awaited (it was slow or down at the order's
  -- creation): the `check_addresses` job asks again, then clears it.
  ADD COLUMN address_check_due_at timestamptz;

CREATE INDEX orders_address_check_due_idx ON orders (address_check_due_at)
  WHERE address_check_due_at IS NOT NULL;

-- Addresses already placed, by normalised address (src/domain/places/address-key.ts), shared by
-- every instance: what the geocoder answered (a null point: it found nothing), and where a parcel
-- to the address was delivered (learned from the proof of delivery). Each row lives until
-- `expires_at` (docs/places.md: 90 days for an answer, 7 for "not found", a year for a delivery).
-- `seq` orders the rows for the instances' filters of known addresses, which read only the new ones.
CREATE TABLE address_points (
  address_key text NOT NULL CHECK (length(address_key) <= 600),
  source text NOT NULL CHECK (source IN ('geocoder', 'delivery')),
  lat double precision CHECK (lat BETWEEN -90 AND 90),
  lng double precision CHECK (lng BETWEEN -180 AND 180),
  precision text CHECK (precision IN ('rooftop', 'street', 'locality', 'postcode')),
  score real,
  postcode text,
  citycode text,
  city text,
  label text,
  seq bigserial NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (address_key, source),
  CHECK ((lat IS NULL) = (lng IS NULL) AND (lat IS NULL) = (precision IS NULL))
);

CREATE INDEX address_points_seq_idx ON address_points (seq);
CREATE INDEX address_points_expires_idx ON address_points (expires_at);
