export type { Destination, DestinationInput } from './destination.ts';
export { hasDestination, resolveDestination } from './destination.ts';
export { extractPostcode } from './extract-postcode.ts';
export type { AddressField, Place } from './locate-address.ts';
export { locateAddress, locateAddresses } from './locate-address.ts';
export type { PostcodeInfo } from './postcodes.ts';
export { lookupPostcode } from './postcodes.ts';
export type { PricingZone } from './zones.ts';
export { IDF_DEPARTEMENTS, isPricingZone, PRICING_ZONES, zoneForDepartement } from './zones.ts';
