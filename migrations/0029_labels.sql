-- Labels (SPEC §10): when an order's label was first printed, and the operator's sort-code table.
--
-- * orders.labelled_at: set by the first print only (a reprint prints the same label and keeps the
--   date). It is not a member of the order's public JSON, so setting it must not mark the stored
--   JSON stale: the stale trigger (migration 0023) now ignores an update that changes nothing else.
-- * sort_codes: a postcode, or the start of one, and the sort code printed on the labels of orders
--   delivered there; the longest matching prefix wins, and a postcode the table does not cover gets
--   the default code (zone + arrondissement or département, src/domain/labels/sort-codes.ts).
--   Replaced whole by `dlv sort-codes import FILE`.

ALTER TABLE orders ADD COLUMN labelled_at timestamptz;

CREATE TABLE sort_codes (
  postcode_prefix text PRIMARY KEY CHECK (postcode_prefix ~ '^[0-9]{2,5}$'),
  sort_code       text NOT NULL CHECK (sort_code ~ '^[A-Z0-9](?:[A-Z0-9-]{0,14}[A-Z0-9])?$'),
  imported_at     timestamptz NOT NULL
);

-- The WHEN clause still keeps the service's own writes (which store the JSON) from calling it; of
-- the others, one that only set labelled_at leaves the JSON as it was.
CREATE OR REPLACE FUNCTION orders_mark_json_stale() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.labelled_at IS DISTINCT FROM OLD.labelled_at
     AND to_jsonb(NEW) - 'labelled_at' = to_jsonb(OLD) - 'labelled_at' THEN
    RETURN NEW;
  END IF;
  NEW.json_version := NULL;
  RETURN NEW;
END $$;
