import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageConnectors } from '../scripts/package-connectors.ts';
import { crc32, listZip } from '../scripts/zip-writer.ts';
import { hasCommand, run } from './support/php.ts';

let dir: string;
let zips: Record<string, Buffer>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dlv-connectors-'));
  const files = await packageConnectors(dir);
  zips = Object.fromEntries(await Promise.all(files.map(async (f) => [path.basename(f), await readFile(f)])));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('npm run package:connectors', () => {
  it('zips the WooCommerce plugin under livraison-dlv/, without its tests', () => {
    const names = listZip(zips['livraison-dlv-woocommerce.zip']!);
    expect(names.every((n) => n.startsWith('livraison-dlv/'))).toBe(true);
    expect(names).toEqual(
      expect.arrayContaining([
        'livraison-dlv/',
        'livraison-dlv/livraison-dlv.php',
        'livraison-dlv/readme.txt',
        'livraison-dlv/uninstall.php',
        'livraison-dlv/includes/class-dlv-shipping-method.php',
        'livraison-dlv/languages/livraison-dlv-fr_FR.po',
        'livraison-dlv/README.md',
      ]),
    );
    expect(names.filter((n) => /\/tests\/|phpunit\.xml|stubs/.test(n))).toEqual([]);
  });

  it('zips the PrestaShop module under dlvshipping/, without its tests', () => {
    const names = listZip(zips['dlvshipping-prestashop.zip']!);
    expect(names.every((n) => n.startsWith('dlvshipping/'))).toBe(true);
    expect(names).toEqual(
      expect.arrayContaining([
        'dlvshipping/',
        'dlvshipping/dlvshipping.php',
        'dlvshipping/config.xml',
        'dlvshipping/index.php',
        'dlvshipping/classes/DlvPushQueue.php',
        'dlvshipping/README.md',
      ]),
    );
    expect(names.filter((n) => /\/tests\/|phpunit\.xml|stubs/.test(n))).toEqual([]);
  });

  it('gives the same bytes for the same files (fixed dates, sorted entries)', async () => {
    const again = await packageConnectors(dir);
    for (const file of again) expect((await readFile(file)).equals(zips[path.basename(file)]!)).toBe(true);
  });

  it('computes the standard CRC-32', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.alloc(0))).toBe(0);
  });

  it.skipIf(!hasCommand('unzip'))('writes archives unzip reads back intact, byte for byte', async () => {
    for (const name of Object.keys(zips)) {
      const test = await run('unzip', ['-tq', path.join(dir, name)]);
      expect(test.code, test.stdout + test.stderr).toBe(0);
    }
    const main = await run('unzip', [
      '-p',
      path.join(dir, 'dlvshipping-prestashop.zip'),
      'dlvshipping/dlvshipping.php',
    ]);
    expect(main.stdout).toBe(
      await readFile(new URL('../connectors/prestashop-module/dlvshipping.php', import.meta.url), 'utf8'),
    );
  });
});
