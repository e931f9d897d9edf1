-- contract: the release before it wrote webhook_events under its old name; this migration predates the
-- rolling-deploy rule (docs/operations.md): an upgrade across it stops every instance of the older release first.
-- One transactional outbox for every domain event that subscribers react to (webhooks today, shop
-- connectors and automation next). The event catalogue lives in code (src/events/catalogue.ts), so
-- adding an event type needs no migration.
ALTER TABLE webhook_events RENAME TO outbox_events;
ALTER TABLE outbox_events DROP CONSTRAINT webhook_events_type_check;
ALTER INDEX webhook_events_brand_created_idx RENAME TO outbox_events_brand_created_idx;

-- A number that changes whenever something a cache depends on changes, so every instance can drop
-- its copy after polling one row (the same idea as price_grids.version for grids).
CREATE TABLE cache_versions (
  name    text PRIMARY KEY,
  version bigint NOT NULL DEFAULT 0
);
INSERT INTO cache_versions (name) VALUES ('webhook_subscriptions');

-- Which event types a brand's endpoints listen to decides whether an event is written at all.
-- Only the subscription itself counts (brand, types, existence): status flips of an endpoint do not
-- bump the version, since a disabled endpoint still listens (its missed events can be replayed).
CREATE FUNCTION bump_webhook_subscriptions_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cache_versions SET version = version + 1 WHERE name = 'webhook_subscriptions';
  RETURN NULL;
END $$;

CREATE TRIGGER webhook_endpoints_subscriptions
  AFTER INSERT OR DELETE OR UPDATE OF brand_id, event_types ON webhook_endpoints
  FOR EACH STATEMENT EXECUTE FUNCTION bump_webhook_subscriptions_version();
