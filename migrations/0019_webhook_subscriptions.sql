-- Self-service webhook subscriptions (the "REST hooks" of automation tools) and the polling feed.

-- Signed notifications stay "on request": the operator opens the subscription API to a brand
-- (`dlv brands allow-webhooks`), and only then may its keys carry `webhooks:write`.
ALTER TABLE brands ADD COLUMN webhooks_allowed boolean NOT NULL DEFAULT false;

-- One model for the operator's endpoints and the brand's API subscriptions: `origin` says who made
-- it (the brand may delete only its own). An `api` subscription is deleted softly (status
-- 'deleted', kept for the delivery log it is referenced by); a deleted endpoint receives nothing
-- and listens to nothing.
ALTER TABLE webhook_endpoints
  ADD COLUMN origin      text NOT NULL DEFAULT 'operator' CHECK (origin IN ('operator', 'api')),
  ADD COLUMN description text CHECK (length(description) <= 500),
  ADD COLUMN deleted_at  timestamptz;
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_status_check;
ALTER TABLE webhook_endpoints
  ADD CONSTRAINT webhook_endpoints_status_check CHECK (status IN ('active', 'disabled', 'deleted')),
  ADD CONSTRAINT webhook_endpoints_deleted_check CHECK ((status = 'deleted') = (deleted_at IS NOT NULL));

-- A brand's live API subscriptions: counted against the limit of 25 on every subscription.
CREATE INDEX webhook_endpoints_brand_api_idx ON webhook_endpoints (brand_id)
  WHERE origin = 'api' AND status <> 'deleted';

-- Deleting a subscription changes who listens, like adding one (migration 0007's trigger).
DROP TRIGGER webhook_endpoints_subscriptions ON webhook_endpoints;
CREATE TRIGGER webhook_endpoints_subscriptions
  AFTER INSERT OR DELETE OR UPDATE OF brand_id, event_types, deleted_at ON webhook_endpoints
  FOR EACH STATEMENT EXECUTE FUNCTION bump_webhook_subscriptions_version();

-- GET /orders?sort=updated_at: the brand's orders by last change, oldest first (keyset on
-- updated_at, id; see ordersRepository.listChangedJson for why pages stop short of the present).
CREATE INDEX orders_brand_updated_idx ON orders (brand_id, updated_at, id);
