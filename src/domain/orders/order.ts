import type { PricingZone } from '../coverage/zones.ts';
import type { ServiceCode } from '../pricing/services.ts';
import type { UnitType } from '../pricing/units.ts';
import type { OrderStatus } from './state-machine.ts';

export interface OrderEvent {
  status: OrderStatus;
  at: Date;
  note: string | null;
}

export interface Order {
  /** Internal key: never shown; keyset pagination breaks ties on it. */
  id: number;
  trackingRef: string;
  brandId: string;
  status: OrderStatus;
  reference: string | null;
  customerEmail: string;
  amountCents: number | null;
  pickupAddress: string | null;
  deliveryAddress: string | null;
  deliveryPostcode: string | null;
  deliveryCity: string | null;
  deliveryZone: PricingZone | null;
  deliveryRecipient: string | null;
  deliveryPhone: string | null;
  deliveryEmail: string | null;
  service: ServiceCode;
  unitType: UnitType;
  quantity: number;
  unitWeightGrams: number;
  priceExclTaxCents: number | null;
  vatCents: number | null;
  priceCents: number | null;
  promisedDate: string | null;
  pickedUpAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface OrderWithEvents extends Order {
  events: OrderEvent[];
}
