import type { EInvoicingConfig } from '../../config.ts';
import type { EInvoicePlatform } from '../../domain/einvoicing/ports.ts';
import { afnorFlowPlatform } from './afnor-flow-platform.ts';
import { directoryPlatform } from './directory-platform.ts';

/** The platform the config names: files in a directory (the default), or an AFNOR XP Z12-013 platform. */
export function createEInvoicePlatform(
  config: EInvoicingConfig,
  options: { log: (message: string) => void; clock: () => Date },
): EInvoicePlatform {
  const platform = config.platform;
  if (platform.kind === 'afnor') return afnorFlowPlatform(platform, { clock: options.clock });
  return directoryPlatform({ dir: platform.dir, log: options.log, clock: options.clock });
}
