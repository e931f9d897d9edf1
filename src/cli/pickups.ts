import { pickupJson } from '../domain/pickups/pickup-json.ts';
import type { Pickup } from '../domain/pickups/ports.ts';
import { type CommandSpec, command, optionalFlag, requireArg, requireFlag, table } from './context.ts';

function describe(p: Pickup): string {
  const missing = p.missingRefs.length > 0 ? `\n  missing: ${p.missingRefs.join(', ')}` : '';
  return `${p.id}  ${p.date} ${p.window.start}–${p.window.end}  ${p.status}  ${p.orderRefs.length} parcel(s)  (brand ${p.brandId})${missing}`;
}

export const pickupCommands: CommandSpec[] = [
  command({
    path: 'pickups list',
    writesNoLinks: true,
    description: "a day's pickups, every brand's or one brand's",
    flags: {
      date: { value: 'YYYY-MM-DD', description: 'the day', required: true },
      brand: { value: 'ID', description: "only this brand's" },
    },
    async run(ctx) {
      const brandId = optionalFlag(ctx, 'brand');
      const pickups = await ctx.deps.pickups.listAny({
        date: requireFlag(ctx, 'date'),
        ...(brandId !== null && { brandId }),
      });
      const text =
        pickups.length === 0
          ? 'No pickup that day.'
          : table([
              ['ID', 'BRAND', 'WINDOW', 'STATUS', 'PARCELS', 'MISSING', 'ADDRESS'],
              ...pickups.map((p) => [
                p.id,
                p.brandId,
                `${p.window.start}–${p.window.end}`,
                p.status,
                String(p.orderRefs.length),
                String(p.missingRefs.length),
                p.pickupAddress,
              ]),
            ]);
      ctx.out(text, { pickups: pickups.map((p) => ({ brand_id: p.brandId, pickup: pickupJson(p) })) });
    },
  }),
  command({
    path: 'pickups close',
    description: 'close a pickup with the parcels the courier scanned; the others are missing',
    args: [{ name: 'PICKUP_ID', description: 'the pickup (pck_…)' }],
    flags: {
      scanned: { value: 'REF,REF…', description: 'the tracking refs scanned (none: the pickup was missed)' },
    },
    async run(ctx) {
      const scanned = (optionalFlag(ctx, 'scanned') ?? '')
        .split(',')
        .map((r) => r.trim())
        .filter((r) => r !== '');
      const pickup = await ctx.deps.pickups.close(requireArg(ctx, 0, 'PICKUP_ID'), scanned, ctx.by);
      ctx.out(describe(pickup), { brand_id: pickup.brandId, pickup: pickupJson(pickup) });
    },
  }),
];
