-- The buyer block of an issued invoice or credit note, as it stood when the document was issued:
-- an issued document never changes, so its PDF must not follow later edits of the brand's billing
-- details (account area, Company page). Drafts are drawn from the current details.
CREATE TABLE document_buyers (
  document_id text PRIMARY KEY,
  name        text NOT NULL,
  address     text,
  siren       text,
  vat_number  text
);

CREATE FUNCTION document_buyers_are_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the buyer of an issued document is immutable';
END $$;
CREATE TRIGGER document_buyers_frozen BEFORE UPDATE OR DELETE ON document_buyers
  FOR EACH ROW EXECUTE FUNCTION document_buyers_are_frozen();
