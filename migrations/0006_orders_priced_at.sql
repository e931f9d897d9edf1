-- When an order became billable: its creation for an order created with an address, the moment its
-- address was completed for one created without (it had no price before). Invoices take a month's
-- orders by this instant, so an order completed after its creation month was invoiced is billed
-- on the next invoice instead of on none.

ALTER TABLE orders ADD COLUMN priced_at timestamptz;
UPDATE orders SET priced_at = created_at WHERE price_cents IS NOT NULL;

-- Set here rather than by each statement that prices an order, so no path can forget it. It uses
-- the instants the application wrote (created_at, updated_at), which come from its clock.
CREATE FUNCTION orders_set_priced_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.price_cents IS NOT NULL AND NEW.priced_at IS NULL THEN
    NEW.priced_at := CASE WHEN TG_OP = 'INSERT' THEN NEW.created_at ELSE NEW.updated_at END;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER orders_priced_at BEFORE INSERT OR UPDATE OF price_cents ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_set_priced_at();

ALTER TABLE orders ADD CONSTRAINT orders_priced_when_priced CHECK ((price_cents IS NULL) = (priced_at IS NULL));

-- A month's billable orders of one brand (drafts, issuing, and the issuing job's probe).
CREATE INDEX orders_brand_priced_idx ON orders (brand_id, priced_at) WHERE priced_at IS NOT NULL;
