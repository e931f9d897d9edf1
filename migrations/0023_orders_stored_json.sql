-- contract: the release before it wrote order_events, left history out of its inserts and relied on the
-- orders_priced_at trigger; this migration predates the rolling-deploy rule (docs/operations.md): an
-- upgrade across it stops every instance of the older release first.
-- The order's write path and its reads, measured against a minimal delivery API (issue #11):
-- * The history moves into the order's row (`history`, the JSON array the detail shows): an order
--   has a handful of events, always written by a statement that writes the order too, and always
--   read with it. Creating an order no longer writes a second row with two index entries, and the
--   detail no longer probes a second table.
-- * The row keeps its public JSON (`json_rest`: the members that depend only on the row, rendered
--   at every write; `json_version`: what they were rendered with — see STORED_JSON_VERSION). Reads
--   add the members that depend on the deployment (the tracking URL). Rows written before this
--   migration, or under another version, are rendered from their columns until the
--   `refresh_order_json` job stores their text. An UPDATE that changes the row without storing
--   its JSON again (an operator's fix by hand) marks the stored text stale rather than leave it
--   saying something else than the columns: a trigger, on updates only, whose WHEN clause is
--   evaluated without calling it for the service's own writes.
-- * priced_at is set by the statements that price an order (created priced: its creation; priced
--   by a change: that change) instead of a plpgsql trigger on every insert; the CHECK of migration
--   0006 still refuses a priced order without it.

ALTER TABLE orders ADD COLUMN history json, ADD COLUMN json_rest text, ADD COLUMN json_version integer;

-- Each event as orderDetailJson renders it (row_to_json's separators are JSON.stringify's).
UPDATE orders o SET history = (
  SELECT coalesce('[' || string_agg(row_to_json((SELECT r FROM (SELECT e.status,
           to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, e.note) r))::text, ',' ORDER BY e.id) || ']',
         '[]')
    FROM order_events e WHERE e.order_id = o.id)::json;
ALTER TABLE orders ALTER COLUMN history SET NOT NULL;

DROP TABLE order_events;

DROP TRIGGER orders_priced_at ON orders;
DROP FUNCTION orders_set_priced_at();

CREATE FUNCTION orders_mark_json_stale() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.json_version := NULL;
  RETURN NEW;
END $$;

CREATE TRIGGER orders_json_stale BEFORE UPDATE ON orders FOR EACH ROW
  WHEN (NEW.json_rest IS NOT DISTINCT FROM OLD.json_rest AND NEW.json_version IS NOT DISTINCT FROM OLD.json_version)
  EXECUTE FUNCTION orders_mark_json_stale();

-- What the `refresh_order_json` job must look at: rows marked stale (json_version NULL: written
-- before this migration, or changed by hand) through a partial index the service's own writes never
-- enter; and, once per version of the rendering, every row (a pass recorded here when finished).
CREATE INDEX orders_json_stale_idx ON orders (id) WHERE json_version IS NULL;
CREATE TABLE order_json_passes (
  version     integer PRIMARY KEY,
  finished_at timestamptz NOT NULL
);
