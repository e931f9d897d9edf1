-- Monthly invoices. Only issued invoices are stored: the running month is a draft computed from the
-- orders, and every total is summed from the lines, so nothing can drift from them.

-- Gap-free numbering per year: the row is locked by the issuing transaction, so numbers are handed
-- out one at a time and a rolled-back issue gives its number back.
CREATE TABLE invoice_counters (
  year          integer PRIMARY KEY,
  last_sequence integer NOT NULL CHECK (last_sequence BETWEEN 0 AND 999999)
);

CREATE TABLE invoices (
  id        text PRIMARY KEY CHECK (id ~ '^inv_[0-9a-f]{16}$'),
  brand_id  text NOT NULL REFERENCES brands (id),
  period    text NOT NULL CHECK (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  number    text NOT NULL UNIQUE CHECK (number ~ '^F[0-9]{4}-[0-9]{6}$'),
  status    text NOT NULL CHECK (status IN ('issued', 'paid')),
  issued_at timestamptz NOT NULL,
  due_date  date NOT NULL,
  paid_at   timestamptz,
  UNIQUE (brand_id, period),
  CHECK ((status = 'paid') = (paid_at IS NOT NULL))
);
CREATE INDEX invoices_brand_period_idx ON invoices (brand_id, period DESC);

CREATE TABLE invoice_lines (
  invoice_id           text NOT NULL REFERENCES invoices (id),
  order_id             bigint NOT NULL UNIQUE REFERENCES orders (id),
  tracking_ref         text NOT NULL,
  service              text NOT NULL,
  created_at           timestamptz NOT NULL,
  price_excl_tax_cents integer NOT NULL,
  vat_cents            integer NOT NULL,
  price_cents          integer NOT NULL CHECK (price_cents = price_excl_tax_cents + vat_cents),
  PRIMARY KEY (invoice_id, order_id)
);

-- An issued invoice is immutable: its lines can never change, and the invoice itself only moves
-- from issued to paid.
CREATE FUNCTION invoice_lines_are_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'invoice lines are immutable once issued';
END $$;
CREATE TRIGGER invoice_lines_frozen BEFORE UPDATE OR DELETE ON invoice_lines
  FOR EACH ROW EXECUTE FUNCTION invoice_lines_are_frozen();

CREATE FUNCTION invoices_only_get_paid() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR NEW.id <> OLD.id OR NEW.brand_id <> OLD.brand_id OR NEW.period <> OLD.period
     OR NEW.number <> OLD.number OR NEW.issued_at <> OLD.issued_at OR NEW.due_date <> OLD.due_date
     OR NOT (OLD.status = 'issued' AND NEW.status = 'paid') THEN
    RAISE EXCEPTION 'an issued invoice can only be marked paid';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER invoices_immutable BEFORE UPDATE OR DELETE ON invoices
  FOR EACH ROW EXECUTE FUNCTION invoices_only_get_paid();
