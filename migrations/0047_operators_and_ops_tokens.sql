-- Named operators and machine tokens (issue 38): the delivery company's people sign in with their
-- own password and a second factor, and its tools hold named, scoped, revocable tokens, instead of
-- everyone sharing OPS_TOKEN (which stays as a bootstrap credential). New tables: nothing else changes.

-- The operators. `one_time_password_until` is set while the password is one an admin handed over
-- (the sign-in that uses it moves it to that moment, so it is never accepted again). The TOTP secret
-- is sealed with AES-256-GCM (OPERATOR_TOTP_KEY, else a key in server_secrets), bound to the row's
-- id; `totp_last_step` is the last time step accepted, so a code is accepted once.
CREATE TABLE operators (
  id                      text PRIMARY KEY CHECK (id ~ '^opr_[0-9a-f]{16}$'),
  email                   text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  name                    text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  role                    text NOT NULL CHECK (role IN ('admin', 'dispatcher', 'finance', 'support')),
  password_hash           text NOT NULL,
  one_time_password_until timestamptz,
  totp_secret             bytea,
  totp_pending_secret     bytea,
  totp_enrolled_at        timestamptz,
  totp_last_step          bigint,
  disabled_at             timestamptz,
  created_at              timestamptz NOT NULL DEFAULT now(),
  CHECK ((totp_secret IS NULL) = (totp_enrolled_at IS NULL))
);
CREATE UNIQUE INDEX operators_email_idx ON operators (lower(email));

-- Ten one-use codes per enrolment, each kept as the SHA-256 of its 79 random bits.
CREATE TABLE operator_recovery_codes (
  operator_id text NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  code_hash   bytea NOT NULL CHECK (length(code_hash) = 32),
  created_at  timestamptz NOT NULL DEFAULT now(),
  used_at     timestamptz,
  PRIMARY KEY (operator_id, code_hash)
);

-- Sessions as the account area's (the id is the SHA-256 of a token only the client holds), one
-- table for the operations API's bearer sessions and the console's cookies (`channel`). A `setup`
-- session can only choose the operator's password and enrol their second factor.
CREATE TABLE operator_sessions (
  id           bytea PRIMARY KEY CHECK (length(id) = 32),
  operator_id  text NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  channel      text NOT NULL CHECK (channel IN ('api', 'console')),
  stage        text NOT NULL CHECK (stage IN ('setup', 'full')),
  csrf_token   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX operator_sessions_operator_idx ON operator_sessions (operator_id);

-- Machine tokens: `dlv_ops_` + 64 hex, kept as SHA-256 digests with a display prefix. A name is
-- unique among the tokens not revoked, so the audit trail's "token X" names one.
CREATE TABLE ops_tokens (
  id           text PRIMARY KEY CHECK (id ~ '^otk_[0-9a-f]{16}$'),
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  token_hash   bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
  prefix       text NOT NULL,
  scopes       text[] NOT NULL CHECK (cardinality(scopes) > 0),
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz,
  revoked_at   timestamptz,
  last_used_at timestamptz
);
CREATE UNIQUE INDEX ops_tokens_name_idx ON ops_tokens (lower(name)) WHERE revoked_at IS NULL;
