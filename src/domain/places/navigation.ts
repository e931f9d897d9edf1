import type { DeliveryLocation } from './location.ts';

/** Where the courier app's "Navigate" sends the phone: the system's choice and the usual apps. */
export interface NavigationLinks {
  /** RFC 5870 `geo:` URI: Android asks which installed app opens it. */
  geo: string;
  google_maps: string;
  waze: string;
  apple_maps: string;
}

/**
 * Links to a stop (docs/courier-app.md): to its point when the point is the address's own (a
 * house, a street, a named place), else (the postcode's point: somewhere in the arrondissement) to
 * the address as written, which the map app searches itself. Null: neither is known.
 */
export function navigationLinks(
  location: DeliveryLocation | null,
  address: string | null,
): NavigationLinks | null {
  if (location && location.precision !== 'postcode') {
    const at = `${location.lat},${location.lng}`;
    return {
      geo: `geo:${at}?q=${at}`,
      google_maps: `https://www.google.com/maps/dir/?api=1&destination=${at}`,
      waze: `https://waze.com/ul?ll=${at}&navigate=yes`,
      apple_maps: `https://maps.apple.com/?daddr=${at}`,
    };
  }
  const text = address?.replace(/\s+/g, ' ').trim();
  if (!text) return null;
  const q = encodeURIComponent(text);
  return {
    geo: `geo:0,0?q=${q}`,
    google_maps: `https://www.google.com/maps/dir/?api=1&destination=${q}`,
    waze: `https://waze.com/ul?q=${q}&navigate=yes`,
    apple_maps: `https://maps.apple.com/?daddr=${q}`,
  };
}
