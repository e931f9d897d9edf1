-- E-invoicing (issue 41): what a valid Factur-X needs of a brand, and the transmission of each issued
-- document to the e-invoicing platform (PA) with the statuses that come back.

-- The establishment billed (14 digits, its first 9 the SIREN), optional: the e-invoice's buyer
-- identifier (BT-46) when given.
ALTER TABLE brands ADD COLUMN siret text CHECK (siret ~ '^[0-9]{14}$' AND left(siret, 9) = siren);

-- Frozen with the buyer block of an issued document (migration 0017): the SIRET, and where the
-- service starts (the brand's default pickup address), printed and sent as the deliver-to address
-- when it is not the billing address. Null on documents issued before: they were never e-invoices.
ALTER TABLE document_buyers ADD COLUMN siret text, ADD COLUMN service_address text;

-- One row per issued invoice or credit note handed to the platform, written in the issuing
-- transaction (with its submission job). Documents issued before this migration have none: they
-- were sent as PDFs, and are not e-invoices.
CREATE TABLE einvoice_transmissions (
  document_id   text PRIMARY KEY CHECK (document_id ~ '^inv_[0-9a-f]{16}$'),
  brand_id      text NOT NULL REFERENCES brands (id),
  -- The invoice or credit note number: the platform's tracking id, so a retry finds the first
  -- submission instead of making a second one.
  number        text NOT NULL UNIQUE CHECK (number ~ '^[FA][0-9]{4}-[0-9]{6}$'),
  status        text NOT NULL CHECK (status IN ('pending', 'deposited', 'received', 'accepted', 'refused', 'rejected', 'paid')),
  -- Why it was refused or rejected (the platform's words), or the last lifecycle step's label.
  status_reason text CHECK (length(status_reason) <= 2000),
  status_at     timestamptz NOT NULL,
  platform      text,
  flow_id       text,
  submitted_at  timestamptz,
  attempts      integer NOT NULL DEFAULT 0,
  last_error    text CHECK (length(last_error) <= 2000),
  created_at    timestamptz NOT NULL,
  CHECK ((flow_id IS NULL) = (submitted_at IS NULL))
);
CREATE INDEX einvoice_transmissions_brand_idx ON einvoice_transmissions (brand_id, created_at DESC);

-- Every status a document went through, oldest first: what the operator reads to see why.
CREATE TABLE einvoice_status_history (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  document_id text NOT NULL REFERENCES einvoice_transmissions (document_id),
  status      text NOT NULL,
  reason      text CHECK (length(reason) <= 2000),
  at          timestamptz NOT NULL
);
CREATE INDEX einvoice_status_history_document_idx ON einvoice_status_history (document_id, id);

-- The payment data of a paid invoice (services, VAT due when paid: the operator did not opt for
-- the debits), written when it is marked paid and sent through the same platform once.
CREATE TABLE einvoice_payment_reports (
  invoice_id text PRIMARY KEY REFERENCES invoices (id),
  brand_id   text NOT NULL REFERENCES brands (id),
  paid_on    date NOT NULL,
  -- [{ "rate_percent": 20, "taxable_cents": …, "vat_cents": …, "total_cents": … }]
  amounts    jsonb NOT NULL,
  status     text NOT NULL CHECK (status IN ('pending', 'sent')),
  flow_id    text,
  sent_at    timestamptz,
  attempts   integer NOT NULL DEFAULT 0,
  last_error text CHECK (length(last_error) <= 2000),
  created_at timestamptz NOT NULL,
  CHECK ((status = 'sent') = (sent_at IS NOT NULL))
);

-- Where the last reading of the platform's status updates stopped, per platform.
CREATE TABLE einvoice_sync_state (
  platform  text PRIMARY KEY,
  cursor    text NOT NULL,
  synced_at timestamptz NOT NULL
);
