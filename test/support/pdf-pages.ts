import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { hasCommand } from './php.ts';

const run = promisify(execFile);

/**
 * Whether poppler's tools are here (Debian's poppler-utils, which .ci/run installs): without them
 * the tests that look at rendered pages are skipped, and say so once.
 */
export const POPPLER = hasCommand('pdftoppm') && hasCommand('pdftotext') && hasCommand('pdfinfo');
if (!POPPLER) {
  console.warn('[tests] pdftoppm/pdftotext/pdfinfo not found (poppler-utils): rendered-page checks skipped');
}

/** Each page of a PDF rendered to PNG by poppler's pdftoppm (what a person's viewer shows). */
export async function pdfPagesToPng(pdf: Buffer, dpi = 150): Promise<Buffer[]> {
  const dir = await mkdtemp(join(tmpdir(), 'pdf-pages-'));
  try {
    await writeFile(join(dir, 'doc.pdf'), pdf);
    await run('pdftoppm', ['-r', String(dpi), '-png', join(dir, 'doc.pdf'), join(dir, 'page')]);
    const pages = (await readdir(dir)).filter((f) => f.startsWith('page')).sort();
    return Promise.all(pages.map((f) => readFile(join(dir, f))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The text of a PDF as poppler's pdftotext lays it out. */
export async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pdf-text-'));
  try {
    await writeFile(join(dir, 'doc.pdf'), pdf);
    const { stdout } = await run('pdftotext', ['-layout', join(dir, 'doc.pdf'), '-']);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
