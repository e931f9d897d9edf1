import type { OrderWithEvents } from '../domain/orders/order.ts';
import { type CommandSpec, command, requireArg, table } from './context.ts';

const TRACKING_REF = { name: 'TRACKING_REF', description: 'the order (DLV-…)' };

function describe(order: OrderWithEvents): string {
  const price = order.priceCents === null ? '—' : `${(order.priceCents / 100).toFixed(2)} € incl. VAT`;
  const lines = [
    `${order.trackingRef}  ${order.status}  (brand ${order.brandId})`,
    `  ${order.service} · ${order.quantity} × ${order.unitType} · ${order.unitWeightGrams} g · ${price} · promised ${order.promisedDate ?? '—'}`,
    `  to:   ${order.deliveryAddress ?? '(awaiting address)'}${order.deliveryRecipient ? ` — ${order.deliveryRecipient}` : ''}`,
    `  from: ${order.pickupAddress ?? '—'}`,
    '',
    table([
      ['AT', 'STATUS', 'NOTE'],
      ...order.events.map((e) => [e.at.toISOString(), e.status, e.note ?? '']),
    ]),
  ];
  return lines.join('\n');
}

export const orderCommands: CommandSpec[] = [
  command({
    path: 'orders show',
    description: 'an order of any brand and its status history',
    args: [TRACKING_REF],
    async run(ctx) {
      const order = await ctx.deps.orders.getAnyBrand(requireArg(ctx, 0, 'TRACKING_REF'), ctx.by);
      ctx.out(describe(order), { brand_id: order.brandId, order: ctx.deps.orders.detailJson(order) });
    },
  }),
  command({
    path: 'orders set-status',
    description: 'move an order to a status its current one allows',
    args: [TRACKING_REF, { name: 'STATUS', description: 'picked_up, delivered, cancelled…' }],
    flags: { note: { value: 'TEXT', description: "a note kept in the order's history" } },
    async run(ctx) {
      const note = typeof ctx.flags.note === 'string' ? ctx.flags.note : null;
      const order = await ctx.deps.orders.setStatus(
        requireArg(ctx, 0, 'TRACKING_REF'),
        requireArg(ctx, 1, 'STATUS'),
        note,
        ctx.by,
      );
      ctx.out(`${order.trackingRef} is now ${order.status}`, {
        brand_id: order.brandId,
        order: ctx.deps.orders.detailJson(order),
      });
    },
  }),
];
