-- A delivery is written three times (fan-out, claim, outcome): these make the claim cheap
-- (docs/decisions/0005-webhook-delivery-queue.md, second addendum).
--
-- A claim sets only the lease (lease_until, lease_token), which no index covers: with room left on
-- the row's page, PostgreSQL writes the new version there without a new entry in any of the
-- table's indexes (a HOT update). Packed full, as the fan-out's inserts left them, every claim
-- added an entry to each index. New pages keep 30 % free for it.
ALTER TABLE webhook_deliveries SET (fillfactor = 70);

-- The due deliveries by time, across endpoints: no statement reads it since deliveries are claimed
-- endpoint by endpoint (webhook_deliveries_endpoint_due_idx, same rows, migration 0031), and the
-- lease sweep scans that one as well. Each fan-out and each claim still paid for an entry.
DROP INDEX webhook_deliveries_due_idx;
