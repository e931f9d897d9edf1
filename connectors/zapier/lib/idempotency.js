'use strict';

const { createHash } = require('node:crypto');

/**
 * The Idempotency-Key of a "Create delivery order" step: a hash of the step's input, sorted by
 * field name so the order Zapier lists fields in does not matter.
 *
 * Why derived from the input: Zapier runs a step again when it cannot tell whether the first run
 * worked (a timeout after our API already created the order, Autoreplay, a replay from the Zap
 * history). The same input gives the same key, so the API answers the retry with the order it
 * already created (`Idempotent-Replayed: true`) instead of booking a second courier. A key is kept
 * 24 h per brand; two genuinely different orders differ in some field (map the shop's order number
 * to "Reference"), and the "Idempotency key" field overrides the derived key when needed.
 */
function idempotencyKeyFor(fields) {
  const canonical = JSON.stringify(
    Object.keys(fields)
      .sort()
      .map((key) => [key, fields[key]]),
  );
  return `zapier-${createHash('sha256').update(canonical).digest('hex')}`;
}

module.exports = { idempotencyKeyFor };
