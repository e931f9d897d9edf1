import type { Order } from '../orders/order.ts';
import type { ServiceCode } from '../pricing/services.ts';

/** What a label is printed on: PDF (A6 or 4×6 in) for office printers, ZPL II for thermal printers. */
export type LabelFormat = 'pdf' | 'zpl';
export type LabelSize = 'a6' | '4x6';

export const LABEL_FORMATS: readonly LabelFormat[] = ['pdf', 'zpl'];
export const LABEL_SIZES: readonly LabelSize[] = ['a6', '4x6'];

/** The service as printed in the label's corner: one short word a sorter reads at a glance. */
export const SERVICE_WORDS: Record<ServiceCode, string> = {
  express: 'Express',
  standard: 'Standard',
  economy: 'Eco',
};

/**
 * Everything printed on one label — and nothing else: the customer's e-mail and the goods' amount
 * are not here, so no layout can print them (SPEC §10).
 */
export interface LabelContent {
  /** Our name (CARRIER_NAME). */
  carrier: string;
  service: ServiceCode;
  trackingRef: string;
  sortCode: string;
  /** What the DataMatrix carries: `ref|sort code|unit/units` (see `dataMatrixText`). */
  dataMatrix: string;
  sender: { name: string; address: string[] };
  recipient: { name: string | null; address: string[]; phone: string | null };
  /** YYYY-MM-DD (Europe/Paris). */
  promisedDate: string | null;
  /** One unit's weight. */
  weightGrams: number;
  /** This label's unit, 1-based, and the order's count: "2/3". */
  unit: number;
  units: number;
  /** The brand's own order number (the shop's, for connector orders). */
  reference: string | null;
  /**
   * A test order's label (test mode): printed across with SPECIMEN_TEXT so nobody takes it for
   * a parcel; its codes stay readable, and a scan of them is refused `test_order`.
   */
  specimen: boolean;
}

/** What a test order's label says across it, in the words a courier reads. */
export const SPECIMEN_TEXT = 'SPECIMEN — NOT FOR DELIVERY';

/**
 * The 2D code's text: the reference, the sort code and the unit, separated by `|` (a character
 * neither contains), so a scanner at the hub reads where a parcel goes and which of its order's
 * parcels it is without a lookup.
 */
function dataMatrixText(trackingRef: string, sortCode: string, unit: number, units: number): string {
  return `${trackingRef}|${sortCode}|${unit}/${units}`;
}

/**
 * "12 rue Oberkampf 75011 Paris" → ["12 rue Oberkampf", "75011 Paris"]: the line a sorter reads
 * (postcode and city) on its own. An address without its postcode stays one line.
 */
function addressLines(address: string | null, postcode: string | null): string[] {
  if (!address) return [];
  const text = address.replace(/\s+/g, ' ').trim();
  const at = postcode ? text.lastIndexOf(postcode) : -1;
  if (at <= 0) return [text];
  const street = text.slice(0, at).replace(/[\s,]+$/, '');
  return street ? [street, text.slice(at)] : [text.slice(at)];
}

/** +33612345678 → 06 12 34 56 78 (how a French courier dials it); other numbers as stored. */
function phoneForCourier(phone: string | null): string | null {
  if (!phone) return null;
  const french = /^\+33(\d{9})$/.exec(phone);
  if (!french) return phone;
  return `0${french[1]}`.replace(/(\d{2})(?=\d)/g, '$1 ');
}

const POSTCODE = /\b(\d{5})\b(?!.*\b\d{5}\b)/;

/**
 * One label per unit of the order (its `quantity`): a parcel of 3 units is 3 parcels on the
 * courier's trolley, each with its own "1/3", "2/3", "3/3" and the same reference.
 */
export function labelsOfOrder(
  order: Order,
  context: { carrier: string; brandName: string; sortCode: string },
): LabelContent[] {
  const pickupPostcode = order.pickupAddress ? (POSTCODE.exec(order.pickupAddress)?.[1] ?? null) : null;
  const base = {
    carrier: context.carrier,
    service: order.service,
    trackingRef: order.trackingRef,
    sortCode: context.sortCode,
    sender: { name: context.brandName, address: addressLines(order.pickupAddress, pickupPostcode) },
    recipient: {
      name: order.deliveryRecipient,
      address: addressLines(order.deliveryAddress, order.deliveryPostcode),
      phone: phoneForCourier(order.deliveryPhone),
    },
    promisedDate: order.promisedDate,
    weightGrams: order.unitWeightGrams,
    units: order.quantity,
    reference: order.reference,
    specimen: !order.livemode,
  };
  return Array.from({ length: order.quantity }, (_, i) => ({
    ...base,
    unit: i + 1,
    dataMatrix: dataMatrixText(order.trackingRef, context.sortCode, i + 1, order.quantity),
  }));
}
