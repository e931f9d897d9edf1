import {
  BRAND_FLAG,
  type CommandSpec,
  command,
  optionalFlag,
  type PlatformCommands,
  requireFlag,
} from '../../cli/context.ts';
import { connectionJson } from '../connection.ts';

/** `dlv connectors prestashop …`: linking a shop, its secret shown once. */
export const PRESTASHOP_CLI: PlatformCommands = {
  platform: 'prestashop',
  label: 'PrestaShop',
  helpOrder: 2,
  polled: true,
  resyncHelp: 'PrestaShop with a Webservice key',
  commands: [
    command({
      path: 'connectors prestashop link',
      description:
        "link a PrestaShop shop; prints the connection id and shop secret for the module's settings, once",
      flags: {
        brand: BRAND_FLAG,
        url: { value: 'URL', description: "the shop's address (https://shop)", required: true },
        key: {
          value: 'WEBSERVICE_KEY',
          description: 'a Webservice key: orders also polled, tracking written back',
        },
      },
      async run(ctx) {
        const { connection, secret, pollEnabled } = await ctx.deps.prestashop.linking.link({
          brandId: requireFlag(ctx, 'brand'),
          url: requireFlag(ctx, 'url'),
          key: optionalFlag(ctx, 'key') ?? undefined,
        });
        ctx.out(
          [
            `Linked ${connection.shop} to ${connection.brandId}.`,
            'Paste these in the module’s settings (Modules › Module Manager › Livraison DLV › Configure); the secret is shown only now:',
            `  Connection id: ${connection.id}`,
            `  Shop secret:   ${secret}`,
            pollEnabled
              ? 'With the Webservice key: orders are also polled, and tracking numbers and deliveries written back.'
              : 'Without a Webservice key: orders arrive by the module’s pushes only, and nothing is written back.',
          ].join('\n'),
          { ...connectionJson(connection), secret, poll_enabled: pollEnabled },
        );
      },
    }),
  ] satisfies CommandSpec[],
};
