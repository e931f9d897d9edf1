-- contract: binary-compatible only (each column takes a domain over its own base type, without a rewrite,
-- and the domains keep the rules and constraint names): the previous release's statements run unchanged.
-- The orders' single-column rules move from table CHECK constraints to domains (issue #11, the
-- write path's cost). PostgreSQL re-reads a table's CHECK expressions from the catalogue text and
-- plans them again at every INSERT and UPDATE execution, prepared statement or not: twelve such
-- rules cost about 30 µs of server CPU per order written, a quarter of the insert. A domain's
-- rules are compiled once per connection (the type cache) and checked when the value is bound.
-- The rules, their SQLSTATE (23514) and their names (the error's `constraint`) are unchanged, but
-- for the three price columns' rules, now one. The two rules that compare columns stay table
-- constraints.
--
-- Without a table rewrite: the columns take unconstrained domains first (a binary-compatible type
-- change keeps the rows and the indexes, but for the one on an expression of `reference`, partial,
-- rebuilt), then each domain gets its rule, checked against the rows already there.

CREATE DOMAIN order_tracking_ref AS text;
CREATE DOMAIN order_status AS text;
CREATE DOMAIN order_reference AS text;
CREATE DOMAIN order_amount_cents AS bigint;
CREATE DOMAIN order_delivery_zone AS text;
CREATE DOMAIN order_service AS text;
CREATE DOMAIN order_unit_type AS text;
CREATE DOMAIN order_quantity AS integer;
CREATE DOMAIN order_unit_weight_grams AS integer;
CREATE DOMAIN order_cents AS integer;

ALTER TABLE orders
  ALTER COLUMN tracking_ref TYPE order_tracking_ref,
  ALTER COLUMN status TYPE order_status,
  ALTER COLUMN reference TYPE order_reference,
  ALTER COLUMN amount_cents TYPE order_amount_cents,
  ALTER COLUMN delivery_zone TYPE order_delivery_zone,
  ALTER COLUMN service TYPE order_service,
  ALTER COLUMN unit_type TYPE order_unit_type,
  ALTER COLUMN quantity TYPE order_quantity,
  ALTER COLUMN unit_weight_grams TYPE order_unit_weight_grams,
  ALTER COLUMN price_excl_tax_cents TYPE order_cents,
  ALTER COLUMN vat_cents TYPE order_cents,
  ALTER COLUMN price_cents TYPE order_cents;

ALTER DOMAIN order_tracking_ref ADD CONSTRAINT orders_tracking_ref_check
  CHECK (VALUE ~ '^DLV-[0-9A-HJKMNP-TV-Z]{10}$');
ALTER DOMAIN order_status ADD CONSTRAINT orders_status_check
  CHECK (VALUE IN ('awaiting_address', 'pending', 'picked_up', 'in_transit', 'out_for_delivery',
                   'failed_attempt', 'delivered', 'returned', 'cancelled'));
ALTER DOMAIN order_reference ADD CONSTRAINT orders_reference_check CHECK (length(VALUE) <= 100);
ALTER DOMAIN order_amount_cents ADD CONSTRAINT orders_amount_cents_check CHECK (VALUE >= 0);
ALTER DOMAIN order_delivery_zone ADD CONSTRAINT orders_delivery_zone_check
  CHECK (VALUE IN ('paris', 'petite_couronne', 'grande_couronne'));
ALTER DOMAIN order_service ADD CONSTRAINT orders_service_check CHECK (VALUE IN ('express', 'standard', 'economy'));
ALTER DOMAIN order_unit_type ADD CONSTRAINT orders_unit_type_check
  CHECK (VALUE IN ('parcel', 'envelope', 'bulky', 'pallet'));
ALTER DOMAIN order_quantity ADD CONSTRAINT orders_quantity_check CHECK (VALUE BETWEEN 1 AND 1000);
ALTER DOMAIN order_unit_weight_grams ADD CONSTRAINT orders_unit_weight_grams_check CHECK (VALUE > 0);
-- One rule for the three price columns (excl. tax, VAT, incl. tax), each checked on its own value.
ALTER DOMAIN order_cents ADD CONSTRAINT orders_cents_check CHECK (VALUE >= 0);

ALTER TABLE orders
  DROP CONSTRAINT orders_tracking_ref_check,
  DROP CONSTRAINT orders_status_check,
  DROP CONSTRAINT orders_reference_check,
  DROP CONSTRAINT orders_amount_cents_check,
  DROP CONSTRAINT orders_delivery_zone_check,
  DROP CONSTRAINT orders_service_check,
  DROP CONSTRAINT orders_unit_type_check,
  DROP CONSTRAINT orders_quantity_check,
  DROP CONSTRAINT orders_unit_weight_grams_check,
  DROP CONSTRAINT orders_price_excl_tax_cents_check,
  DROP CONSTRAINT orders_vat_cents_check,
  DROP CONSTRAINT orders_price_cents_check;
