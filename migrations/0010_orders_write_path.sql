-- The order insert is the service's hottest write; two of its costs bought nothing:
-- * The foreign key to brands share-locked the brand's row on every insert, so a brand's concurrent
--   orders queued on one row lock (multixacts). Brands are never deleted (disabled at most), which a
--   trigger now guarantees, so every order's brand_id keeps naming a brand.
-- * order_events' foreign key to orders: events are written only in the statement that inserts or
--   updates their order (the CTE reads the order's id from that very write), and the service
--   never deletes an order.
ALTER TABLE orders DROP CONSTRAINT orders_brand_id_fkey;
ALTER TABLE order_events DROP CONSTRAINT order_events_order_id_fkey;

CREATE FUNCTION brands_are_never_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'brands are never deleted (their orders and invoices keep naming them); disable the brand instead';
END $$;
CREATE TRIGGER brands_never_deleted BEFORE DELETE ON brands
  FOR EACH STATEMENT EXECUTE FUNCTION brands_are_never_deleted();
