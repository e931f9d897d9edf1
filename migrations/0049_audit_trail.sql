-- The audit trail (issue 38; docs/decisions/0009-audit-trail.md, docs/security.md "Audit trail"):
-- who changed what, when, from where, with the before/after of the fields that changed, written in
-- the same transaction as the change. A new table: nothing else changes.
--
-- Append-only for everyone: triggers refuse UPDATE, DELETE and TRUNCATE, whoever runs them (the
-- tests and `npm start` connect as a superuser, whom GRANTs do not bind), and an application role
-- that is not the owner gets no UPDATE, DELETE nor TRUNCATE (deploy/postgres/application-role.sql).
-- Retention deletes only whole months: the table is partitioned by month of `at`, and the daily
-- `audit_partitions` job drops the months older than AUDIT_RETENTION_DAYS through
-- audit_drop_partitions_before() below (a DROP of a partition is no row's UPDATE nor DELETE).

CREATE TABLE audit_events (
  id             bigint GENERATED ALWAYS AS IDENTITY,
  -- The transaction's time: every row of one change shares it, and no caller's clock sets it.
  at             timestamptz NOT NULL DEFAULT now(),
  actor_kind     text NOT NULL CHECK (actor_kind IN
                   ('operator', 'token', 'bootstrap', 'cli', 'courier', 'user', 'api_key', 'system')),
  -- The operator's, token's, courier's, user's or key's id, the CLI's user@host, the job's name
  -- (null for the bootstrap OPS_TOKEN).
  actor_id       text CHECK (length(actor_id) <= 200),
  -- How a person reads who it was: an operator's e-mail, a token's name, `OPS_TOKEN`, user@host…
  actor_label    text NOT NULL CHECK (length(actor_label) <= 200),
  -- Where the request came from, when there was one (the CLI and the jobs have none).
  client_address text CHECK (length(client_address) <= 64),
  user_agent     text CHECK (length(user_agent) <= 512),
  request_id     text CHECK (length(request_id) <= 100),
  -- From the closed catalogue of src/domain/audit/actions.ts (`order.status_changed`…).
  action         text NOT NULL CHECK (action ~ '^[a-z_]{1,40}\.[a-z_]{1,40}$'),
  object_type    text NOT NULL CHECK (object_type ~ '^[a-z_]{1,40}$'),
  object_id      text NOT NULL CHECK (length(object_id) <= 200),
  brand_id       text,
  -- The orders the change or the read was about, by tracking reference (never the recipient's data).
  order_refs     text[] NOT NULL DEFAULT '{}',
  -- The changed fields only: {"status": {"before": "pending", "after": "picked_up"}}; a recipient's
  -- personal field is "changed", without its values.
  changes        jsonb,
  -- What else says what happened (counts, the scan's context, the file's name): never personal data.
  details        jsonb,
  PRIMARY KEY (id, at)
) PARTITION BY RANGE (at);

-- The lists' filters, newest first. An order's rows through its reference (a read names many).
CREATE INDEX audit_events_order_refs_idx ON audit_events USING gin (order_refs);
CREATE INDEX audit_events_actor_id_idx ON audit_events (actor_id, id);
CREATE INDEX audit_events_actor_label_idx ON audit_events (actor_label, id);

-- Rows that land in no month (a month not prepared yet: the job did not run for months) go here
-- rather than failing the change they record; the retention drops it whole once all of it expired.
CREATE TABLE audit_events_default PARTITION OF audit_events DEFAULT;

CREATE FUNCTION audit_events_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit trail is append-only: % of % refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege',
      HINT = 'Whole months older than AUDIT_RETENTION_DAYS are dropped by the audit_partitions job.';
END $$;

-- A row trigger on the partitioned table is cloned onto every partition, those made later
-- included: no row changes, whichever table a statement names.
CREATE TRIGGER audit_events_append_only_rows BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse();
-- Statement triggers are not cloned: each partition gets its own (audit_guard_partition), so a
-- TRUNCATE (which fires no row trigger) or an UPDATE matching nothing is refused too.
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse();

-- Whoever was granted UPDATE, DELETE or TRUNCATE on the table (ALTER DEFAULT PRIVILEGES giving an
-- application role every new table, GRANT … ON ALL TABLES) loses them; its owner keeps its rights.
CREATE FUNCTION audit_revoke_changes(relation regclass) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  grantee text;
BEGIN
  EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %s FROM PUBLIC', relation);
  FOR grantee IN
    SELECT DISTINCT a.grantee::regrole::text FROM pg_class c, aclexplode(c.relacl) a
      WHERE c.oid = relation AND a.grantee NOT IN (0, c.relowner)
        AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
  LOOP
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %s FROM %s', relation, grantee);
  END LOOP;
END $$;

CREATE FUNCTION audit_guard_partition(partition regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format(
    'CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON %s
       FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse()', partition);
  PERFORM audit_revoke_changes(partition);
END $$;
SELECT audit_guard_partition('audit_events_default');

-- The months from the current one (UTC) to `months_ahead` after it, created when missing: the
-- daily job keeps three ahead. Run as the owner (SECURITY DEFINER), so an application role that
-- owns nothing can call it. A month whose rows already went to the default partition is left there.
CREATE FUNCTION audit_prepare_partitions(months_ahead integer) RETURNS SETOF text
LANGUAGE plpgsql SECURITY DEFINER SET lock_timeout = '5s' AS $$
DECLARE
  first timestamptz := date_trunc('month', now(), 'UTC');
  -- Created beside the table (pg_catalog comes first in the function's search_path).
  home text := (SELECT relnamespace::regnamespace::text FROM pg_class WHERE oid = 'audit_events'::regclass);
  start timestamptz;
  name text;
BEGIN
  IF months_ahead < 0 OR months_ahead > 24 THEN
    RAISE EXCEPTION 'months_ahead must be 0 to 24, not %', months_ahead;
  END IF;
  FOR i IN 0..months_ahead LOOP
    start := first + make_interval(months => i);
    name := 'audit_events_' || to_char(start AT TIME ZONE 'UTC', 'YYYY_MM');
    CONTINUE WHEN to_regclass(name) IS NOT NULL;
    BEGIN
      EXECUTE format('CREATE TABLE %s.%I PARTITION OF audit_events FOR VALUES FROM (%L) TO (%L)',
        home, name, start, start + interval '1 month');
      PERFORM audit_guard_partition(name::regclass);
      RETURN NEXT name;
    EXCEPTION WHEN check_violation THEN
      RAISE WARNING 'audit month % not created: its rows are in audit_events_default', name;
    END;
  END LOOP;
END $$;

-- Drops the months that ended before `cutoff` (and the default partition once all of its rows are
-- older): the retention. Never a month younger than 90 days, whatever the caller asks: an
-- application role that can call this cannot erase recent history.
CREATE FUNCTION audit_drop_partitions_before(cutoff timestamptz)
RETURNS TABLE (partition text, row_count bigint)
LANGUAGE plpgsql SECURITY DEFINER SET lock_timeout = '5s' AS $$
DECLARE
  home text := (SELECT relnamespace::regnamespace::text FROM pg_class WHERE oid = 'audit_events'::regclass);
  month record;
  newest timestamptz;
BEGIN
  IF cutoff > now() - interval '90 days' THEN
    RAISE EXCEPTION 'the audit trail keeps at least 90 days: % is too recent a cutoff', cutoff;
  END IF;
  FOR month IN
    SELECT c.relname::text AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'audit_events'::regclass AND c.relname ~ '^audit_events_[0-9]{4}_[0-9]{2}$'
      ORDER BY c.relname
  LOOP
    CONTINUE WHEN to_date(substr(month.name, 14), 'YYYY_MM')::timestamp AT TIME ZONE 'UTC'
      + interval '1 month' > cutoff;
    partition := month.name;
    EXECUTE format('SELECT count(*) FROM %I', month.name) INTO row_count;
    EXECUTE format('DROP TABLE %I', month.name);
    RETURN NEXT;
  END LOOP;
  SELECT max(at) INTO newest FROM audit_events_default;
  IF newest IS NOT NULL AND newest < cutoff THEN
    partition := 'audit_events_default';
    SELECT count(*) INTO row_count FROM audit_events_default;
    DROP TABLE audit_events_default;
    EXECUTE format('CREATE TABLE %s.audit_events_default PARTITION OF audit_events DEFAULT', home);
    PERFORM audit_guard_partition('audit_events_default');
    RETURN NEXT;
  END IF;
END $$;

-- The functions run with the schema they were created in, never the caller's search_path.
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION audit_prepare_partitions(integer) SET search_path = pg_catalog, %I, pg_temp',
    current_schema());
  EXECUTE format('ALTER FUNCTION audit_drop_partitions_before(timestamptz) SET search_path = pg_catalog, %I, pg_temp',
    current_schema());
  EXECUTE format('ALTER FUNCTION audit_guard_partition(regclass) SET search_path = pg_catalog, %I, pg_temp',
    current_schema());
  EXECUTE format('ALTER FUNCTION audit_revoke_changes(regclass) SET search_path = pg_catalog, %I, pg_temp',
    current_schema());
END $$;

-- Nobody but the owner may rewrite it; an application role is granted SELECT and INSERT only.
SELECT audit_revoke_changes('audit_events');
REVOKE EXECUTE ON FUNCTION audit_guard_partition(regclass) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION audit_revoke_changes(regclass) FROM PUBLIC;

SELECT audit_prepare_partitions(3);
