-- An order created with an address is priced at its creation (priced_at = created_at, 0006 and
-- 0023): the (brand_id, created_at) index already finds it by its billing instant. Only orders
-- priced later than created (created without an address, completed afterwards) need an index of
-- their own on priced_at, so the billing index keeps just those: every order created with an
-- address writes one index entry fewer, on an index whose newest page every insert of the brand
-- shares (issue #11, the write path's cost). Invoices read both (invoices-repository.ts, BILLABLE).

DROP INDEX orders_brand_priced_idx;
CREATE INDEX orders_brand_priced_late_idx ON orders (brand_id, priced_at) WHERE priced_at <> created_at;
