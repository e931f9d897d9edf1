import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { checkObjectKey, type ObjectStore } from '../../domain/proofs/ports.ts';

/** The content type travels beside the bytes, in a small file of its own. */
const TYPE_SUFFIX = '.content-type';

/**
 * Objects as files under `root` (the embedded default: DATA_DIR/objects). A write goes to a
 * temporary file in the same directory, then is renamed over the key's path: a reader or a crash
 * never leaves half a photo. Keys are checked (checkObjectKey) and resolved inside `root`, twice
 * over: the pattern refuses `..` and absolute paths, and the resolved path must stay under root.
 */
export function fsObjectStore(root: string): ObjectStore {
  const base = path.resolve(root);
  const pathOf = (key: string) => {
    const full = path.resolve(base, checkObjectKey(key));
    if (!full.startsWith(base + path.sep)) throw new Error(`invalid object key ${JSON.stringify(key)}`);
    return full;
  };
  const atomicWrite = async (file: string, data: Buffer | string) => {
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, data, { mode: 0o600 });
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  };
  const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';
  return {
    async put(key, bytes, contentType) {
      const file = pathOf(key);
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      // The type first: an object is visible only once its bytes are renamed into place.
      await atomicWrite(file + TYPE_SUFFIX, contentType);
      await atomicWrite(file, bytes);
    },
    async get(key) {
      const file = pathOf(key);
      try {
        const [bytes, contentType] = await Promise.all([
          readFile(file),
          readFile(file + TYPE_SUFFIX, 'utf8').catch(() => 'application/octet-stream'),
        ]);
        return { bytes, contentType };
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async delete(key) {
      const file = pathOf(key);
      await unlink(file).catch((err) => {
        if (!missing(err)) throw err;
      });
      await rm(file + TYPE_SUFFIX, { force: true });
    },
    async exists(key) {
      try {
        return (await stat(pathOf(key))).isFile();
      } catch (err) {
        if (missing(err)) return false;
        throw err;
      }
    },
  };
}
