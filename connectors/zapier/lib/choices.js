'use strict';

/** The API's delivery services and unit types, as Zapier dropdown choices (value → label). */
const SERVICES = {
  express: 'Express — same day',
  standard: 'Standard — next business day',
  economy: 'Economy — 3 business days',
};
const UNIT_TYPES = { parcel: 'Parcel', envelope: 'Envelope', bulky: 'Bulky item', pallet: 'Pallet' };

module.exports = { SERVICES, UNIT_TYPES };
