import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { hasCommand } from './php.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/**
 * The official Factur-X 1.07 / EN 16931 validation files, shipped in test/fixtures/einvoicing (their
 * README says where they come from and under which licence): the XSD, checked with Debian's
 * xmllint (libxml2-utils, which .ci/run installs), and the EN 16931 Schematron already compiled to
 * XSLT 2.0, run with SaxonJS (npm `saxon-js`, compiled once by `xslt3` and kept in the temporary
 * directory under the stylesheet's digest).
 */
const FIXTURES = fileURLToPath(new URL('../fixtures/einvoicing/factur-x-en16931/', import.meta.url));
const XSD = join(FIXTURES, 'xsd', 'FACTUR-X_EN16931.xsd');
const SCHEMATRON_DIR = join(FIXTURES, 'schematron');
const SCHEMATRON_XSLT = join(SCHEMATRON_DIR, 'FACTUR-X_EN16931.xslt');
const CODE_LISTS = 'FACTUR-X_EN16931_codedb.xml';

export const XMLLINT = hasCommand('xmllint');
if (!XMLLINT) {
  console.warn('[tests] xmllint not found (Debian libxml2-utils): the Factur-X XSD checks are skipped');
}

/** The schema's complaints about a CII document; empty when it is valid. */
export async function xsdErrors(xml: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'factur-x-xsd-'));
  try {
    const file = join(dir, 'factur-x.xml');
    await writeFile(file, xml);
    try {
      await run('xmllint', ['--noout', '--nonet', '--schema', XSD, file]);
      return [];
    } catch (err) {
      const stderr = String((err as { stderr?: string }).stderr ?? err);
      return stderr.split('\n').filter((line) => line.trim() !== '' && !line.endsWith('fails to validate'));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface RuleBroken {
  id: string;
  flag: string;
  text: string;
  location: string;
}

let compiled: Promise<string> | null = null;

/**
 * The Schematron's XSLT compiled to SaxonJS's SEF, once per stylesheet version (about 15 s), in a
 * directory of its own beside a copy of the code lists its rules read with document().
 */
function compiledSchematron(): Promise<string> {
  compiled ??= (async () => {
    const digest = createHash('sha256')
      .update(await readFile(SCHEMATRON_XSLT))
      .digest('hex')
      .slice(0, 16);
    const dir = join(tmpdir(), `factur-x-en16931-${digest}`);
    const sef = join(dir, 'FACTUR-X_EN16931.sef.json');
    if (existsSync(sef)) return sef;
    await mkdir(dir, { recursive: true });
    await copyFile(join(SCHEMATRON_DIR, CODE_LISTS), join(dir, CODE_LISTS));
    const partial = `${sef}.${process.pid}.tmp`;
    const xslt3 = join(require.resolve('xslt3/package.json'), '..', 'xslt3.js');
    await run(
      process.execPath,
      [xslt3, `-xsl:${SCHEMATRON_XSLT}`, `-export:${partial}`, '-nogo', '-relocate:on'],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    await rename(partial, sef);
    return sef;
  })();
  return compiled;
}

/** Every EN 16931 rule the document breaks (SVRL failed assertions), fatal or warning. */
export async function schematronFailures(xml: string): Promise<RuleBroken[]> {
  const SaxonJS = require('saxon-js');
  const sef = await compiledSchematron();
  const result = await SaxonJS.transform(
    {
      stylesheetFileName: sef,
      sourceText: xml,
      destination: 'document',
    },
    'async',
  );
  const failures = SaxonJS.XPath.evaluate('//svrl:failed-assert', result.principalResult, {
    namespaceContext: { svrl: 'http://purl.oclc.org/dsdl/svrl' },
    resultForm: 'array',
  }) as { getAttribute(name: string): string | null; textContent: string | null }[];
  return failures.map((node) => ({
    id: node.getAttribute('id') ?? '',
    flag: node.getAttribute('flag') ?? '',
    location: node.getAttribute('location') ?? '',
    text: (node.textContent ?? '').replace(/\s+/g, ' ').trim(),
  }));
}

/** The rules broken that make a document invalid (`flag="fatal"`); warnings are left to the reader. */
export async function fatalRules(xml: string): Promise<RuleBroken[]> {
  return (await schematronFailures(xml)).filter((rule) => rule.flag !== 'warning');
}
