import type { PlatformCommands } from '../cli/context.ts';
import type { Platform } from './connection.ts';
import { PRESTASHOP_CLI } from './prestashop/cli.ts';
import { SHOPIFY_CLI } from './shopify/cli.ts';
import { WOOCOMMERCE_CLI } from './woocommerce/cli.ts';

/**
 * Each platform's commands, in the registry's order. A leaf list rather than the registry itself:
 * `dlv --help` and completion load the command modules, which must not pull in the services (the
 * registry's platforms do), and the commands' context (the wired services) would close a cycle
 * through src/deps.ts. test/connector-lists.test.ts keeps it and the registry the same.
 */
export const CONNECTOR_CLIS: readonly PlatformCommands[] = [SHOPIFY_CLI, WOOCOMMERCE_CLI, PRESTASHOP_CLI];

/** Every platform's `dlv connectors <platform> …` commands, in the help's order. */
export const PLATFORM_COMMANDS = [...CONNECTOR_CLIS]
  .sort((a, b) => a.helpOrder - b.helpOrder)
  .flatMap((c) => c.commands);

/** The platforms whose links have no poll to report. */
export const UNPOLLED_PLATFORMS: readonly Platform[] = CONNECTOR_CLIS.filter((c) => !c.polled).map(
  (c) => c.platform,
);

/** `connectors settings --statuses`: each platform's meaning of it, by its label. */
export const STATUSES_HELP = CONNECTOR_CLIS.flatMap((c) =>
  c.statusesHelp ? [`${c.label}: ${c.statusesHelp}`] : [],
).join('; ');

/** `connectors resync`: the platforms that can, and how. */
export const RESYNC_HELP = CONNECTOR_CLIS.flatMap((c) => (c.resyncHelp ? [c.resyncHelp] : [])).join('; ');

/** The platforms' labels, in the registry's order, for the `connectors` group's description. */
export const PLATFORM_LABELS = CONNECTOR_CLIS.map((c) => c.label).join(', ');
