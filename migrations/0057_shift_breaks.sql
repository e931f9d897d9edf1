-- Issue 37: a courier's break in their shift, which the round optimiser plans around (VROOM's
-- vehicle `breaks`; the in-process solver's): `break_minutes` taken whole, starting no earlier than
-- `break_from` and ending no later than `break_until` (Paris wall clock), inside the shift.
--
-- Expand only: three nullable columns; a shift without a break (every existing one) has none.

ALTER TABLE courier_shifts
  ADD COLUMN break_from time,
  ADD COLUMN break_until time,
  ADD COLUMN break_minutes integer CHECK (break_minutes BETWEEN 5 AND 240),
  ADD CONSTRAINT courier_shifts_break_check CHECK (
    (break_from IS NULL AND break_until IS NULL AND break_minutes IS NULL)
    OR (break_from IS NOT NULL AND break_until IS NOT NULL AND break_minutes IS NOT NULL
        AND break_from >= starts_at AND break_until <= ends_at
        AND break_until - break_from >= make_interval(mins => break_minutes))
  );
