/**
 * The 2-hour window announced with "out for delivery". It comes from the round's arrival times
 * (domain/arrivals, docs/arrival-times.md): the estimate of the order's arrival from the round's
 * departure, its travel times and its stops' service times, updated as the courier goes.
 */
export interface DeliveryWindow {
  from: Date;
  to: Date;
}
