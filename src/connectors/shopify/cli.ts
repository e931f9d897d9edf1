import {
  BRAND_FLAG,
  type CommandContext,
  type CommandSpec,
  command,
  type FlagSpec,
  type PlatformCommands,
  requireFlag,
} from '../../cli/context.ts';
import { AppError } from '../../errors.ts';
import { connectionJson } from '../connection.ts';

function shopify(ctx: CommandContext<Record<string, FlagSpec>>) {
  if (!ctx.deps.shopify)
    throw new AppError(
      'not_found',
      'The Shopify connector is off: set SHOPIFY_API_KEY and SHOPIFY_API_SECRET.',
    );
  return ctx.deps.shopify;
}

/** `dlv connectors shopify …`: linking a shop with a custom app's token (no install through the app). */
export const SHOPIFY_CLI: PlatformCommands = {
  platform: 'shopify',
  label: 'Shopify',
  helpOrder: 1,
  polled: false,
  commands: [
    command({
      path: 'connectors shopify link',
      description: "link a Shopify shop with a custom app's token",
      flags: {
        brand: BRAND_FLAG,
        shop: { value: 'X.myshopify.com', description: "the shop's myshopify.com domain", required: true },
        token: { value: 'T', description: "the custom app's Admin API access token", required: true },
      },
      async run(ctx) {
        const connection = await shopify(ctx).linking.link({
          brandId: requireFlag(ctx, 'brand'),
          shop: requireFlag(ctx, 'shop'),
          token: requireFlag(ctx, 'token'),
        });
        ctx.out(
          `Linked ${connection.shop} to ${connection.brandId} as ${connection.id} (orders/paid, orders/cancelled, app/uninstalled and live rates registered).`,
          connectionJson(connection),
        );
      },
    }),
  ] satisfies CommandSpec[],
};
