-- Retention (issue 36, items 31 and 32; docs/security.md "Personal data", docs/operations.md
-- "Retention"): the per-message logs are deleted after MESSAGE_LOG_RETENTION_DAYS (90) by the
-- hourly `message_logs_purge` job, and a recipient's data on an order is erased
-- RECIPIENT_DATA_RETENTION_DAYS (365) after the order ended by the hourly `recipient_data_anonymise`
-- job, or at once on request (`dlv recipients erase`).
--
-- The indexes below are built while the tables' writes wait (a migration runs in a transaction, so
-- not CONCURRENTLY). On a large database, build them beforehand, outside a transaction, with the
-- same statements and CONCURRENTLY: this migration then finds them (IF NOT EXISTS) and only waits
-- for the brief ALTER TABLEs.

-- An erased order keeps no e-mail (the column said every order has its customer's).
ALTER TABLE orders ALTER COLUMN customer_email DROP NOT NULL;
-- When the recipient's data was erased (null: still there). Not a member of the order's JSON: the
-- history says it ("Recipient's personal data erased …").
ALTER TABLE orders ADD COLUMN anonymised_at timestamptz;
-- The ended orders still holding their recipient's data, by their last change: what the retention
-- job looks for. An order enters it with its move to delivered, returned or cancelled (an update
-- that writes new index entries anyway: the status is indexed) and leaves it when anonymised.
CREATE INDEX IF NOT EXISTS orders_anonymise_due_idx ON orders (updated_at)
  WHERE anonymised_at IS NULL AND status IN ('delivered', 'returned', 'cancelled');

-- An event is deleted with its deliveries: their foreign key's check, at each event deleted, looks
-- the deliveries up by event (the fan-out's unique index holds fan-out deliveries only). One entry
-- per delivery written; a claim or an outcome never changes event_id, so they stay HOT updates.
CREATE INDEX IF NOT EXISTS webhook_deliveries_event_idx ON webhook_deliveries (event_id);
-- Likewise a delivery deleted is looked up among the replays naming it (replays only).
CREATE INDEX IF NOT EXISTS webhook_deliveries_replay_of_idx ON webhook_deliveries (replay_of)
  WHERE replay_of IS NOT NULL;
-- The oldest notifications and codes, without reading the tables whole.
CREATE INDEX IF NOT EXISTS recipient_notifications_created_idx ON recipient_notifications (created_at);
CREATE INDEX IF NOT EXISTS recipient_codes_created_idx ON recipient_codes (created_at);

-- The purge deletes about 1/2000 of these tables an hour: vacuumed when 2 % of a table is dead
-- rather than PostgreSQL's 20 %, the space of the deleted rows is reused by the new ones within a
-- day or two, and a table stays near its steady size instead of swelling by a fifth.
ALTER TABLE outbox_events SET (autovacuum_vacuum_scale_factor = 0.02);
ALTER TABLE webhook_deliveries SET (autovacuum_vacuum_scale_factor = 0.02);
ALTER TABLE webhook_attempts SET (autovacuum_vacuum_scale_factor = 0.02);
ALTER TABLE recipient_notifications SET (autovacuum_vacuum_scale_factor = 0.02);
ALTER TABLE connector_inbox SET (autovacuum_vacuum_scale_factor = 0.02);
