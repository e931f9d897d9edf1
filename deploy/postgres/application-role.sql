-- The application's own role (docs/operations.md, "Database roles"): the API and the workers
-- connect as `dlv_app`, which owns nothing, while `dlv migrate` runs as the owner of the tables.
-- It may read and write what the service writes, but never rewrite the audit trail: UPDATE, DELETE
-- and TRUNCATE of `audit_events` and its months are refused to it (its triggers refuse them to
-- everyone, the owner included; decision 0009).
--
-- Run as the owner after `dlv migrate`, and again after every release's migrations (new tables get
-- their grants, the audit trail's months lose theirs):
--   CREATE ROLE dlv_app LOGIN PASSWORD '…';   -- once
--   psql "postgres://dlv@db/dlv" -f deploy/postgres/application-role.sql
-- Another role name: replace dlv_app below.

GRANT USAGE ON SCHEMA public TO dlv_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO dlv_app;
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO dlv_app;

-- The job queue (graphile_worker's schema, migrated by `dlv migrate` too).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'graphile_worker') THEN
    GRANT USAGE ON SCHEMA graphile_worker TO dlv_app;
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA graphile_worker TO dlv_app;
    GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA graphile_worker TO dlv_app;
    GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA graphile_worker TO dlv_app;
  END IF;
END $$;

-- The audit trail: read and appended to, never changed. The grants above gave its table and its
-- months UPDATE and DELETE: taken back here, from the table and from each month.
REVOKE UPDATE, DELETE, TRUNCATE ON audit_events FROM dlv_app;
DO $$
DECLARE
  month regclass;
BEGIN
  FOR month IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'audit_events'::regclass LOOP
    EXECUTE format('REVOKE ALL ON %s FROM dlv_app', month);
  END LOOP;
END $$;
