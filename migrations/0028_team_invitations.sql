-- Invitations to a brand's team from its team page, pending until the invitee accepts: the
-- invitee's account is created only then. Until that, an invitation to a new address and one to an
-- address another brand's person holds are the same kind of row, listed alike on the team page, so
-- the inviter learns nothing of who has an account elsewhere. One per address and brand: inviting
-- again replaces the link (token_hash, the SHA-256 of the e-mailed link's secret), role and expiry.
CREATE TABLE team_invitations (
  id          text PRIMARY KEY CHECK (id ~ '^ivt_[0-9a-f]{16}$'),
  brand_id    text NOT NULL REFERENCES brands (id),
  email       text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  role        text NOT NULL CHECK (role IN ('owner', 'developer', 'finance')),
  token_hash  bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
  invited_by  text REFERENCES users (id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX team_invitations_brand_email_idx ON team_invitations (brand_id, lower(email));
