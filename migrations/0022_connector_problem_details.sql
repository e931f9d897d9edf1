-- A sync problem's structured details (`code` naming the exact case, and its values: a country, a
-- tracking ref, a status…), so the account area words it in the brand's language; `message` stays
-- the English sentence the CLI prints. Problems recorded before have none: their kind is worded.
ALTER TABLE connector_problems ADD COLUMN details jsonb NOT NULL DEFAULT '{}'::jsonb
  CHECK (jsonb_typeof(details) = 'object');
