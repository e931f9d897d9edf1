-- Issue 37: a brand may tell its recipients when their arrival window moves by 30 minutes or more
-- (`order.eta_changed`), as a notification step of its own (docs/recipients.md). The steps' checks
-- are widened to name it; nothing else changes.
--
-- Expand only: the previous release writes none of it, and every value it writes is still allowed.
-- The tables are small (one row per brand; one per message sent), so the checks are validated at once.

ALTER TABLE brand_recipient_settings
  DROP CONSTRAINT brand_recipient_settings_email_steps_check,
  ADD CONSTRAINT brand_recipient_settings_email_steps_check
    CHECK (email_steps <@ '{confirmed,out_for_delivery,eta_changed,delivered,failed_attempt}'),
  DROP CONSTRAINT brand_recipient_settings_sms_steps_check,
  ADD CONSTRAINT brand_recipient_settings_sms_steps_check
    CHECK (sms_steps <@ '{confirmed,out_for_delivery,eta_changed,delivered,failed_attempt}');

ALTER TABLE recipient_notifications
  DROP CONSTRAINT recipient_notifications_step_check,
  ADD CONSTRAINT recipient_notifications_step_check
    CHECK (step IN ('confirmed', 'out_for_delivery', 'eta_changed', 'delivered', 'failed_attempt', 'code'));
