-- The brand's billing details, set by its owner in the account area and printed in the buyer
-- block of its invoices. All null until set: invoices then show the brand's name as before.
ALTER TABLE brands
  ADD COLUMN legal_name      text CHECK (length(legal_name) BETWEEN 1 AND 200),
  ADD COLUMN billing_address text CHECK (length(billing_address) BETWEEN 1 AND 500),
  ADD COLUMN siren           text CHECK (siren ~ '^[0-9]{9}$'),
  ADD COLUMN vat_number      text CHECK (vat_number ~ '^FR[0-9]{2}[0-9]{9}$');
