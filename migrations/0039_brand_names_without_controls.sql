-- A brand's name is the default From name of its recipients' e-mails and is in their subjects, so
-- it follows the sender-name rules (src/domain/shared/display-name.ts) from now on. Names stored
-- before with line breaks or other control characters (C0, DEL, C1, U+2028, U+2029) have each run
-- of them replaced by one space; a name made of nothing else becomes the brand's id. `<`, `>` and
-- `"` are refused in new names only: in a stored one they are harmless (the mailer quotes the name)
-- and the brand chose them.
UPDATE brands
   SET name = COALESCE(
         NULLIF(btrim(regexp_replace(name, '[\x01-\x1f\x7f-\x9f\u2028\u2029]+', ' ', 'g')), ''),
         id)
 WHERE name ~ '[\x01-\x1f\x7f-\x9f\u2028\u2029]';
