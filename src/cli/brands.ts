import type { Brand } from '../domain/brands/brand.ts';
import { type CommandSpec, coreCommand, requireArg, requireFlag, table } from './context.ts';

const BRAND_ID = { name: 'BRAND_ID', description: 'the brand (brd_…)' };

const brandJson = (b: Brand) => ({
  id: b.id,
  name: b.name,
  default_pickup_address: b.defaultPickupAddress,
  created_at: b.createdAt.toISOString(),
  disabled_at: b.disabledAt?.toISOString() ?? null,
  webhooks_allowed: b.webhooksAllowed,
});

/** `allow-webhooks` / `disallow-webhooks`: opens or closes the brand's webhook subscription API. */
function webhooksSwitch(allowed: boolean): CommandSpec {
  const verb = allowed ? 'allow-webhooks' : 'disallow-webhooks';
  return coreCommand({
    path: `brands ${verb}`,
    description: allowed
      ? 'open the webhook subscription API to the brand (its keys may carry webhooks:write); answers its open requests'
      : "close the brand's webhook subscription API and disable its active subscriptions",
    args: [BRAND_ID],
    async run(ctx) {
      const { brand, disabledSubscriptions } = await ctx.deps.brands.setWebhooksAllowed(
        requireArg(ctx, 0, 'BRAND_ID'),
        allowed,
        ctx.by,
        ctx.deps.clock(),
      );
      // The brand's open requests are answered by opening its subscription API.
      const answered = allowed ? await ctx.deps.webhookRequests.closeOpenForBrand(brand.id) : 0;
      const text = allowed
        ? `Webhook subscriptions open for ${brand.id} (${brand.name}): its keys may now carry webhooks:write${answered ? `; ${answered} open request(s) marked done` : ''}`
        : `Webhook subscriptions closed for ${brand.id} (${brand.name}); ${disabledSubscriptions} active subscription(s) disabled`;
      ctx.out(text, {
        ...brandJson(brand),
        disabled_subscriptions: disabledSubscriptions,
        answered_requests: answered,
      });
    },
  });
}

export const brandCommands: CommandSpec[] = [
  coreCommand({
    path: 'brands create',
    description: 'create a brand',
    flags: {
      name: { value: 'NAME', description: "the brand's name", required: true },
      'pickup-address': { value: 'ADDR', description: 'its default pickup address, in the delivery zone' },
    },
    async run(ctx) {
      const pickup = ctx.flags['pickup-address'];
      const brand = await ctx.deps.brands.create(
        { name: requireFlag(ctx, 'name'), pickupAddress: typeof pickup === 'string' ? pickup : null },
        ctx.by,
      );
      ctx.out(`Created brand ${brand.id} (${brand.name})`, brandJson(brand));
    },
  }),
  coreCommand({
    path: 'brands list',
    description: 'list the brands',
    async run(ctx) {
      const brands = await ctx.deps.brands.list();
      const rows = [['ID', 'NAME', 'CREATED', 'DEFAULT PICKUP ADDRESS']].concat(
        brands.map((b) => [b.id, b.name, b.createdAt.toISOString(), b.defaultPickupAddress ?? '-']),
      );
      ctx.out(brands.length ? table(rows) : 'No brands yet: dlv brands create --name NAME', {
        brands: brands.map(brandJson),
      });
    },
  }),
  coreCommand({
    path: 'brands show',
    description: "a brand's details, webhooks_allowed included",
    args: [BRAND_ID],
    async run(ctx) {
      const brand = await ctx.deps.brands.get(requireArg(ctx, 0, 'BRAND_ID'));
      const rows = [
        ['ID', brand.id],
        ['NAME', brand.name],
        ['CREATED', brand.createdAt.toISOString()],
        ['DEFAULT PICKUP ADDRESS', brand.defaultPickupAddress ?? '-'],
        ['WEBHOOKS ALLOWED', brand.webhooksAllowed ? 'yes' : 'no (dlv brands allow-webhooks)'],
        ['DISABLED', brand.disabledAt?.toISOString() ?? '-'],
      ];
      ctx.out(table(rows), brandJson(brand));
    },
  }),
  webhooksSwitch(true),
  webhooksSwitch(false),
  coreCommand({
    path: 'brands disable',
    description: 'disable a brand: its keys are refused within 5 seconds, its people cannot sign in',
    args: [BRAND_ID],
    async run(ctx) {
      const brand = await ctx.deps.brands.disable(requireArg(ctx, 0, 'BRAND_ID'), ctx.by);
      ctx.out(
        `Disabled ${brand.id} (${brand.name}): its keys are refused within 5 seconds, its people cannot sign in`,
        brandJson(brand),
      );
    },
  }),
];
