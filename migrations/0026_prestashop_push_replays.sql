-- PrestaShop pushes are signed over `timestamp.body` (X-Dlv-Timestamp, X-Dlv-Signature): a push whose
-- timestamp is more than 5 minutes off is refused, and so is one whose signature was already seen.
-- The signatures seen are kept here (not in one process's memory) so that a push replayed to another
-- instance of the service is refused too; rows older than the window's reach are deleted as pushes come.
CREATE TABLE prestashop_push_signatures (
  connection_id text NOT NULL REFERENCES connector_connections (id),
  -- The decoded HMAC-SHA256 (32 bytes): it proves nothing beyond the one push it signed.
  signature     bytea NOT NULL CHECK (length(signature) = 32),
  seen_at       timestamptz NOT NULL,
  PRIMARY KEY (connection_id, signature)
);
CREATE INDEX prestashop_push_signatures_seen_idx ON prestashop_push_signatures (connection_id, seen_at);
