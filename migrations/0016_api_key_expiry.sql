-- Key roll: the old key keeps working for a grace period, then stops at expires_at. The key
-- history records the roll. Removing a person from a brand (account area, team page) keeps the
-- key history and the keys they created: the references to them are cleared, not the rows.
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;

ALTER TABLE key_events DROP CONSTRAINT key_events_action_check;
ALTER TABLE key_events ADD CONSTRAINT key_events_action_check
  CHECK (action IN ('created', 'revoked', 'rolled'));

ALTER TABLE api_keys DROP CONSTRAINT api_keys_created_by_user_id_fkey;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_created_by_user_id_fkey
  FOREIGN KEY (created_by_user_id) REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE key_events DROP CONSTRAINT key_events_user_id_fkey;
ALTER TABLE key_events ADD CONSTRAINT key_events_user_id_fkey
  FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE SET NULL;
