import {
  BRAND_FLAG,
  type CommandSpec,
  command,
  type PlatformCommands,
  requireFlag,
} from '../../cli/context.ts';
import { AppError } from '../../errors.ts';
import { connectionJson } from '../connection.ts';

/** `dlv connectors woocommerce …`: linking a store with a REST API key pair. */
export const WOOCOMMERCE_CLI: PlatformCommands = {
  platform: 'woocommerce',
  label: 'WooCommerce',
  helpOrder: 3,
  polled: true,
  statusesHelp: 'statuses taken besides processing (on-hold,pending)',
  resyncHelp: 'WooCommerce',
  commands: [
    command({
      path: 'connectors woocommerce link',
      description: 'link a WooCommerce store with a REST API key pair (read/write)',
      flags: {
        brand: BRAND_FLAG,
        url: { value: 'URL', description: "the store's address (https://shop)", required: true },
        key: { value: 'CK', description: 'the consumer key (ck_…)', required: true },
        secret: { value: 'CS', description: 'the consumer secret (cs_…)', required: true },
      },
      async run(ctx) {
        if (!ctx.deps.woocommerce)
          throw new AppError('not_found', 'The WooCommerce bridge is off: set CONNECTOR_SECRET_KEY.');
        const connection = await ctx.deps.woocommerce.linking.link({
          brandId: requireFlag(ctx, 'brand'),
          url: requireFlag(ctx, 'url'),
          consumerKey: requireFlag(ctx, 'key'),
          consumerSecret: requireFlag(ctx, 'secret'),
        });
        ctx.out(
          `Linked ${connection.shop} to ${connection.brandId} as ${connection.id} (order.created and order.updated webhooks created; orders polled every 5 minutes).`,
          connectionJson(connection),
        );
      },
    }),
  ] satisfies CommandSpec[],
};
