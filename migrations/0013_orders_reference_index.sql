-- The account area searches a brand's orders by their own `reference` (exact or by prefix). Byte
-- order ("C") makes a prefix a plain range scan, whatever the database's default collation; orders
-- without a reference are never searched for, so they stay out of the index.
CREATE INDEX orders_brand_reference_idx ON orders (brand_id, reference COLLATE "C") WHERE reference IS NOT NULL;
