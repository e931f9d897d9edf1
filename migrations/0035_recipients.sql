-- Recipients informed and in control (SPEC §10, issue #28; contract: docs/decisions/0007).

-- What each brand tells its recipients, by which channel, under which name and colours. No row: the
-- defaults (e-mail on out for delivery, delivered and failed attempt; no SMS; the brand's name;
-- French). SMS go from the service's number (so a recipient can answer STOP), the brand named in
-- the text. The logo is a small PNG re-encoded by the service (never the uploaded bytes), served on
-- the tracking page and attached inline to the e-mails.
CREATE TABLE brand_recipient_settings (
  brand_id        text PRIMARY KEY REFERENCES brands (id),
  email_steps     text[] NOT NULL DEFAULT '{out_for_delivery,delivered,failed_attempt}'
                  CHECK (email_steps <@ '{confirmed,out_for_delivery,delivered,failed_attempt}'),
  sms_steps       text[] NOT NULL DEFAULT '{}'
                  CHECK (sms_steps <@ '{confirmed,out_for_delivery,delivered,failed_attempt}'),
  -- The From name of the e-mails; null: the brand's name.
  sender_name     text CHECK (length(sender_name) BETWEEN 1 AND 60),
  colour          text CHECK (colour ~ '^#[0-9a-f]{6}$'),
  logo_png        bytea CHECK (octet_length(logo_png) BETWEEN 1 AND 200000),
  -- SHA-256 of logo_png, hex: the logo's URL changes with it, so it can be cached for good.
  logo_sha256     text CHECK (logo_sha256 ~ '^[0-9a-f]{64}$'),
  locale          text NOT NULL DEFAULT 'fr' CHECK (locale IN ('fr', 'en')),
  -- The brand says its own shop already tells its customers: nothing is sent, whatever the steps.
  shop_notifies   boolean NOT NULL DEFAULT false,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK ((logo_png IS NULL) = (logo_sha256 IS NULL))
);

-- Recipients who asked for nothing more: global, whatever the brand (SPEC §10). Only a digest of
-- the normalised address (lower-cased e-mail; E.164 number) is kept, so the list is not a list of
-- addresses; it is never emptied by the service.
CREATE TABLE recipient_opt_outs (
  channel      text NOT NULL CHECK (channel IN ('email', 'sms')),
  address_hash bytea NOT NULL CHECK (octet_length(address_hash) = 32),
  source       text NOT NULL CHECK (source IN ('link', 'one_click', 'sms_stop', 'operator')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (channel, address_hash)
);

-- Every notification decided for an order's event, one per event and channel (the job's
-- idempotency: a retried job never sends twice), with what became of it.
CREATE TABLE recipient_notifications (
  id           text PRIMARY KEY CHECK (id ~ '^ntf_[0-9a-f]{16}$'),
  order_id     bigint NOT NULL REFERENCES orders (id),
  -- The outbox event that asked for it (the order's move); null for a one-time code.
  event_id     text,
  step         text NOT NULL CHECK (step IN ('confirmed', 'out_for_delivery', 'delivered', 'failed_attempt', 'code')),
  channel      text NOT NULL CHECK (channel IN ('email', 'sms')),
  status       text NOT NULL CHECK (status IN ('sending', 'sent', 'delivered', 'failed', 'skipped')),
  -- Why nothing was sent (skipped), or why the provider refused it (failed).
  detail       text CHECK (length(detail) <= 500),
  -- The SMTP Message-ID or the SMS provider's message id (its delivery reports name it).
  provider_id  text CHECK (length(provider_id) <= 200),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX recipient_notifications_event_idx ON recipient_notifications (event_id, channel)
  WHERE event_id IS NOT NULL;
CREATE INDEX recipient_notifications_order_idx ON recipient_notifications (order_id, created_at);
CREATE UNIQUE INDEX recipient_notifications_provider_idx ON recipient_notifications (provider_id)
  WHERE provider_id IS NOT NULL AND channel = 'sms';

-- One-time codes of the tracking page's self-service: only a digest of the code is kept; 5 tries,
-- 10 minutes, 5 codes per order per day (SPEC §10).
CREATE TABLE recipient_codes (
  id          text PRIMARY KEY CHECK (id ~ '^rcd_[0-9a-f]{16}$'),
  order_id    bigint NOT NULL REFERENCES orders (id),
  channel     text NOT NULL CHECK (channel IN ('email', 'sms')),
  code_hash   bytea NOT NULL CHECK (octet_length(code_hash) = 32),
  attempts    integer NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 5),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recipient_codes_order_idx ON recipient_codes (order_id, created_at);

-- What the recipient chose for the delivery: instructions (door code, floor, intercom) and the
-- safe place's details are sealed (AES-256-GCM, the order id as associated data); only the courier
-- of that delivery sees them in clear.
CREATE TABLE recipient_choices (
  order_id              bigint PRIMARY KEY REFERENCES orders (id),
  instructions_sealed   bytea,
  safe_place            text CHECK (safe_place IN ('neighbour', 'caretaker', 'behind_door', 'letterbox_area', 'other')),
  safe_place_sealed     bytea,
  updated_at            timestamptz NOT NULL DEFAULT now(),
  CHECK (safe_place_sealed IS NULL OR safe_place IS NOT NULL)
);
