-- The opt-out list keyed (issue 36): an unkeyed SHA-256 of an address lets anyone holding a row or
-- an unsubscribe link confirm a guessed address. Rows are now kept under HMAC-SHA256(opt-out key,
-- that digest) — OPT_OUT_KEY, or outside production a key generated once in server_secrets — which
-- only the service can compute. SQL cannot reach that key (it may live only in the environment):
-- the rows written before are marked `keyed = false` here and keyed by the service at its next
-- start (src/db/opt-out-key.ts; `node dist/service.js migrate` does it too), which needs only
-- their digest. Until then, and for rows an instance of the previous release still writes during
-- a rolling upgrade (the default keeps them false), they are matched by their unkeyed digest.
ALTER TABLE recipient_opt_outs ADD COLUMN keyed boolean NOT NULL DEFAULT false;
CREATE INDEX recipient_opt_outs_unkeyed_idx ON recipient_opt_outs (created_at) WHERE NOT keyed;

-- Which key the list is kept under: a fingerprint of it (HMAC of a constant, which says nothing of
-- the key) and where it came from. A process given another key (an instance or dlv with a
-- different OPT_OUT_KEY, or none) refuses to use it, rather than miss every opt-out.
CREATE TABLE recipient_opt_out_key (
  only_row    boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  fingerprint bytea NOT NULL CHECK (octet_length(fingerprint) = 16),
  source      text NOT NULL CHECK (source IN ('setting', 'generated')),
  created_at  timestamptz NOT NULL DEFAULT now()
);
