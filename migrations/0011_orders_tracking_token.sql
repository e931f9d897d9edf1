-- The recipient's tracking page (/track/{token}) is reached without an account, so its token must
-- be unguessable and independent of the tracking reference (which brands print on labels and
-- share). The service draws 16 random bytes per new order; existing orders, and any row inserted
-- without one, get 32 bytes from two built-in random UUIDs (no pgcrypto needed), in base64url.
CREATE FUNCTION random_tracking_token() RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT rtrim(translate(encode(decode(
    replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'), 'base64'), '+/', '-_'), '=')
$$;

ALTER TABLE orders ADD COLUMN tracking_token text;
UPDATE orders SET tracking_token = random_tracking_token();
ALTER TABLE orders
  ALTER COLUMN tracking_token SET DEFAULT random_tracking_token(),
  ALTER COLUMN tracking_token SET NOT NULL,
  ADD CONSTRAINT orders_tracking_token_key UNIQUE (tracking_token);
