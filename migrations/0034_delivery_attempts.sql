-- Attempts at the door (SPEC §10): delivered (with its proof) or failed (with its reason). The facts
-- stay with the order for good; the files (photo, signature) are in object storage under their
-- keys, erased 90 days after the attempt by a job that then clears the keys and sets
-- files_erased_at. Position rounded to about 100 m (3 decimals) before it is stored.
CREATE TABLE delivery_attempts (
  id              text PRIMARY KEY CHECK (id ~ '^att_[0-9a-f]{16}$'),
  order_id        bigint NOT NULL REFERENCES orders (id),
  -- The door scan that made it; null when the operator sent the proof through the ops API.
  scan_id         uuid UNIQUE REFERENCES scans (id),
  courier_id      text REFERENCES couriers (id),
  outcome         text NOT NULL CHECK (outcome IN ('delivered', 'failed_attempt')),
  reason          text CHECK (reason IN ('absent', 'refused', 'address_not_found', 'no_access', 'damaged')),
  happened_at     timestamptz NOT NULL,
  received_by     text CHECK (length(received_by) BETWEEN 1 AND 100),
  latitude        numeric(6, 3) CHECK (latitude BETWEEN -90 AND 90),
  longitude       numeric(6, 3) CHECK (longitude BETWEEN -180 AND 180),
  photo_key       text,
  signature_key   text,
  files_erased_at timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  CHECK ((outcome = 'failed_attempt') = (reason IS NOT NULL)),
  CHECK ((latitude IS NULL) = (longitude IS NULL)),
  CHECK (files_erased_at IS NULL OR (photo_key IS NULL AND signature_key IS NULL))
);
CREATE INDEX delivery_attempts_order_idx ON delivery_attempts (order_id, happened_at);
CREATE INDEX delivery_attempts_files_idx ON delivery_attempts (happened_at)
  WHERE photo_key IS NOT NULL OR signature_key IS NOT NULL;

-- The brand's choice to show the delivery photo on its recipients' tracking page (off by default:
-- a photo of a doorstep is the brand's to publish).
ALTER TABLE brands ADD COLUMN tracking_shows_proof_photo boolean NOT NULL DEFAULT false;
