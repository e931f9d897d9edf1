import type { Brand } from '../domain/brands/brand.ts';
import { brandJson } from '../domain/brands/brand-json.ts';
import { missingForInvoicing } from '../domain/brands/company-readiness.ts';
import { type CommandSpec, coreCommand, requireArg, requireFlag, table } from './context.ts';

const BRAND_ID = { name: 'BRAND_ID', description: 'the brand (brd_…)' };

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

const companyJson = (b: Brand) => ({
  brand_id: b.id,
  legal_name: b.legalName,
  billing_address: b.billingAddress,
  siren: b.siren,
  siret: b.siret,
  vat_number: b.vatNumber,
  pickup_address: b.defaultPickupAddress,
  missing_for_invoicing: missingForInvoicing(b),
});

/** What a brand's e-invoices need of it: shown, or changed (given fields; the others kept). */
const company = coreCommand({
  path: 'brands company',
  description:
    "a brand's company data (what its e-invoices say): shown, or changed with the flags given (the others keep their value; blank clears)",
  args: [BRAND_ID],
  flags: {
    'legal-name': { value: 'NAME', description: 'legal name (raison sociale)' },
    'billing-address': {
      value: 'ADDR',
      description: 'billing address, lines separated by "|", one of them "postcode city"',
    },
    siren: { value: 'SIREN', description: '9 digits, checked with Luhn' },
    siret: { value: 'SIRET', description: 'the establishment billed: 14 digits starting with the SIREN' },
    'vat-number': { value: 'VAT', description: "the SIREN's French VAT number (FR + key + SIREN)" },
    'pickup-address': { value: 'ADDR', description: 'default pickup address, in the delivery zone' },
  },
  async run(ctx) {
    const current = await ctx.deps.brands.get(requireArg(ctx, 0, 'BRAND_ID'));
    const given = (name: keyof typeof ctx.flags) => {
      const value = ctx.flags[name];
      return typeof value === 'string' ? value : undefined;
    };
    const changes = {
      legalName: given('legal-name'),
      billingAddress: given('billing-address')
        ?.split('|')
        .map((line) => line.trim())
        .join('\n'),
      siren: given('siren'),
      siret: given('siret'),
      vatNumber: given('vat-number'),
      pickupAddress: given('pickup-address'),
    };
    const changing = Object.values(changes).some((value) => value !== undefined);
    const brand = changing
      ? await ctx.deps.brands.updateCompany(
          current.id,
          {
            legalName: changes.legalName ?? current.legalName ?? '',
            billingAddress: changes.billingAddress ?? current.billingAddress ?? '',
            siren: changes.siren ?? current.siren ?? '',
            siret: changes.siret ?? current.siret ?? '',
            vatNumber: changes.vatNumber ?? current.vatNumber ?? '',
            pickupAddress: changes.pickupAddress ?? current.defaultPickupAddress ?? '',
          },
          ctx.by,
        )
      : current;
    const missing = missingForInvoicing(brand);
    const rows = [
      ['LEGAL NAME', brand.legalName ?? '-'],
      ['BILLING ADDRESS', brand.billingAddress?.replaceAll('\n', ' | ') ?? '-'],
      ['SIREN', brand.siren ?? '-'],
      ['SIRET', brand.siret ?? '-'],
      ['VAT NUMBER', brand.vatNumber ?? '-'],
      ['PICKUP ADDRESS', brand.defaultPickupAddress ?? '-'],
      [
        'E-INVOICES',
        missing.length === 0 ? 'ready' : `cannot be invoiced: ${missing.map((m) => m.message).join(', ')}`,
      ],
    ];
    ctx.out(`${changing ? `Company data of ${brand.id} saved\n` : ''}${table(rows)}`, companyJson(brand));
  },
});

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
  company,
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
