-- Delivery reports that outran their message (decision 0007, SMS): Twilio may post a message's
-- final status before the notification job has stored the SID Twilio gave it, and does not post
-- it again. Such a report waits here (the first final one), and the job applies it when it stores
-- the SID; reports no message ever claims are dropped after a day.
CREATE TABLE sms_early_reports (
  provider_id  text PRIMARY KEY CHECK (length(provider_id) BETWEEN 1 AND 200),
  status       text NOT NULL CHECK (status IN ('delivered', 'failed')),
  detail       text CHECK (length(detail) <= 500),
  received_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sms_early_reports_received_idx ON sms_early_reports (received_at);
