import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeZip, type ZipEntry } from './zip-writer.ts';

/**
 * `npm run package:connectors`: zips the WooCommerce plugin and the PrestaShop module into dist/,
 * ready to upload in the shop's admin. Each archive has the one top folder the platform installs
 * under (WordPress: the plugin slug; PrestaShop: the module name) and leaves out the tests.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export const PACKAGES = [
  { source: 'connectors/woocommerce-plugin', folder: 'livraison-dlv', zip: 'livraison-dlv-woocommerce.zip' },
  { source: 'connectors/prestashop-module', folder: 'dlvshipping', zip: 'dlvshipping-prestashop.zip' },
] as const;

/** Development files the shops do not get: tests, their stubs, phpunit's config, dotfiles. */
function excluded(relative: string): boolean {
  const parts = relative.split('/');
  return parts[0] === 'tests' || relative === 'phpunit.xml' || parts.some((p) => p.startsWith('.'));
}

async function entriesOf(sourceDir: string, folder: string): Promise<ZipEntry[]> {
  const files = (await readdir(sourceDir, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => path.relative(sourceDir, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .filter((relative) => !excluded(relative))
    .sort();
  const dirs = new Set<string>([`${folder}/`]);
  for (const file of files) {
    const parts = file.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) dirs.add(`${folder}/${parts.slice(0, i).join('/')}/`);
  }
  const entries: ZipEntry[] = [...dirs].sort().map((name) => ({ name }));
  for (const file of files) {
    entries.push({ name: `${folder}/${file}`, data: await readFile(path.join(sourceDir, file)) });
  }
  return entries;
}

/** Writes both archives to outDir (default dist/) and returns their paths. */
export async function packageConnectors(outDir = path.join(ROOT, 'dist')): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  for (const pkg of PACKAGES) {
    const target = path.join(outDir, pkg.zip);
    await writeFile(target, writeZip(await entriesOf(path.join(ROOT, pkg.source), pkg.folder)));
    written.push(target);
  }
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  for (const file of await packageConnectors()) console.log(path.relative(ROOT, file));
}
