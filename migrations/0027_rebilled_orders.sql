-- Re-billing (issue #23): a pending order re-addressed after its month was issued is re-priced.
-- Its invoice never changes, so the change is billed as a cancellation is credited: a credit note
-- takes back the invoice line, and the order is billed again, at its new price, in the month of
-- the change (its priced_at moves there). An order can therefore be on several invoices, one line
-- each, and be credited several times, once per invoice line: at most one of its lines is ever
-- left uncredited, which the services keep (the order's row lock orders its changes).

ALTER TABLE invoice_lines DROP CONSTRAINT invoice_lines_order_id_key;
CREATE INDEX invoice_lines_order_idx ON invoice_lines (order_id);

ALTER TABLE credit_note_lines DROP CONSTRAINT credit_note_lines_order_id_key;
ALTER TABLE credit_note_lines ADD CONSTRAINT credit_note_lines_invoice_line_key UNIQUE (invoice_id, order_id);
CREATE INDEX credit_note_lines_order_idx ON credit_note_lines (order_id);
