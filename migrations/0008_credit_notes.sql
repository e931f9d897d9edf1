-- Credit notes (factures d'avoir). An issued invoice never changes, so an order cancelled after it
-- was billed is credited by a credit note referencing that invoice, issued in the cancellation's
-- own transaction: one credit note per cancelled order, with one line, the invoice line negated.

-- Its own gap-free series per year (A<year>-<6 digits>), locked like invoice_counters (0004).
CREATE TABLE credit_note_counters (
  year          integer PRIMARY KEY,
  last_sequence integer NOT NULL CHECK (last_sequence BETWEEN 0 AND 999999)
);

-- Credit notes share the invoices' id shape (inv_…) so that every invoice route serves them.
CREATE TABLE credit_notes (
  id                 text PRIMARY KEY CHECK (id ~ '^inv_[0-9a-f]{16}$'),
  brand_id           text NOT NULL REFERENCES brands (id),
  number             text NOT NULL UNIQUE CHECK (number ~ '^A[0-9]{4}-[0-9]{6}$'),
  credits_invoice_id text NOT NULL REFERENCES invoices (id),
  issued_at          timestamptz NOT NULL,
  UNIQUE (id, credits_invoice_id)
);
CREATE INDEX credit_notes_brand_idx ON credit_notes (brand_id);
CREATE INDEX credit_notes_invoice_idx ON credit_notes (credits_invoice_id);

-- Amounts are negative: a credit note takes back what its invoice line charged. The foreign keys
-- hold each line to a line of the very invoice the credit note corrects, and an order is credited
-- at most once, ever.
CREATE TABLE credit_note_lines (
  credit_note_id       text NOT NULL,
  invoice_id           text NOT NULL,
  order_id             bigint NOT NULL UNIQUE,
  tracking_ref         text NOT NULL,
  service              text NOT NULL,
  created_at           timestamptz NOT NULL,
  price_excl_tax_cents integer NOT NULL CHECK (price_excl_tax_cents <= 0),
  vat_cents            integer NOT NULL CHECK (vat_cents <= 0),
  price_cents          integer NOT NULL CHECK (price_cents = price_excl_tax_cents + vat_cents),
  PRIMARY KEY (credit_note_id, order_id),
  FOREIGN KEY (credit_note_id, invoice_id) REFERENCES credit_notes (id, credits_invoice_id),
  FOREIGN KEY (invoice_id, order_id) REFERENCES invoice_lines (invoice_id, order_id)
);

CREATE FUNCTION credit_notes_are_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit notes are immutable once issued';
END $$;
CREATE TRIGGER credit_notes_frozen BEFORE UPDATE OR DELETE ON credit_notes
  FOR EACH ROW EXECUTE FUNCTION credit_notes_are_frozen();
CREATE TRIGGER credit_note_lines_frozen BEFORE UPDATE OR DELETE ON credit_note_lines
  FOR EACH ROW EXECUTE FUNCTION credit_notes_are_frozen();

-- The outbox's event types are the catalogue's (src/events/catalogue.ts, migration 0007): the new
-- type needs no constraint change.

-- An endpoint added without a list of events takes every event, including those added later
-- (parseEventTypes): it is stored with the full list of its day, which now grows by one.
UPDATE webhook_endpoints SET event_types = event_types || ARRAY['credit_note.issued']
 WHERE event_types @> ARRAY['order.created', 'order.status_changed', 'invoice.issued'];
