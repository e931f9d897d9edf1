-- A brand's request for a webhook endpoint, made from the account area: endpoints hold a signing
-- secret and are set up by the operator (`dlv webhooks add`), who lists the open requests with
-- `dlv webhooks requests`. The URL has passed the same SSRF guard as `dlv webhooks add`.
CREATE TABLE webhook_requests (
  id          text PRIMARY KEY CHECK (id ~ '^whr_[0-9a-f]{16}$'),
  brand_id    text NOT NULL REFERENCES brands (id),
  user_id     text REFERENCES users (id) ON DELETE SET NULL,
  url         text NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
  event_types text[] NOT NULL CHECK (cardinality(event_types) > 0),
  message     text NOT NULL DEFAULT '' CHECK (length(message) <= 2000),
  status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done', 'declined')),
  created_at  timestamptz NOT NULL
);
CREATE INDEX webhook_requests_open_idx ON webhook_requests (created_at) WHERE status = 'open';
CREATE INDEX webhook_requests_brand_idx ON webhook_requests (brand_id, created_at);
