-- A courier's password given by the operator is a one-time password (ASVS 2.3.1): it opens one
-- sign-in within its time, and that sign-in can only choose the courier's own password.
-- `one_time_password_until` is set while the courier holds such a password (the sign-in that uses
-- it moves it to that moment, so it is never accepted again); null once the password is their own.
ALTER TABLE couriers ADD COLUMN one_time_password_until timestamptz;

-- A session opened with a one-time password: it can choose the password, and nothing else.
ALTER TABLE courier_sessions ADD COLUMN password_change_only boolean NOT NULL DEFAULT false;

-- The couriers already there may still sign in with a password the operator generated (a hash
-- does not say whether it was generated or chosen): each signs in once more with it, within two
-- weeks (a session lasts a week at most), and chooses their own. Their open sessions carry on.
UPDATE couriers SET one_time_password_until = now() + interval '14 days';

-- Phones were stored as typed: in E.164 now, as new ones are and as orders' phones are: the French
-- forms (`06 12 34 56 78`, `+33 (0)6…`, `0033 6…` → `+33612345678`) and international numbers
-- written with their + (`+44 20 7946 0958` → `+442079460958`). Anything else stays as typed.
UPDATE couriers c SET phone = CASE
    WHEN t.digits ~ '^0[1-9][0-9]{8}$' THEN '+33' || substr(t.digits, 2)
    WHEN t.digits ~ '^\+330[1-9][0-9]{8}$' THEN '+33' || substr(t.digits, 5)
    WHEN t.digits ~ '^0033[1-9][0-9]{8}$' THEN '+' || substr(t.digits, 3)
    ELSE t.digits
  END
  FROM (SELECT id, regexp_replace(phone, '[ .()/-]', '', 'g') AS digits FROM couriers WHERE phone IS NOT NULL) t
 WHERE c.id = t.id AND t.digits ~ '^(\+330?[1-9][0-9]{8}|0[1-9][0-9]{8}|0033[1-9][0-9]{8}|\+[1-9][0-9]{6,14})$';
