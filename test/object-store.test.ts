/**
 * One suite, two adapters (decision 0006): the filesystem store of the embedded default and the S3
 * store against s3rver, a real S3-protocol server, on the loopback with a temporary directory.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectStore } from '../src/domain/proofs/ports.ts';
import { fsObjectStore } from '../src/infra/object-store/fs-object-store.ts';
import { s3ObjectStore } from '../src/infra/object-store/s3-object-store.ts';

interface Harness {
  store: ObjectStore;
  close(): Promise<void>;
}

async function fsHarness(): Promise<Harness & { root: string }> {
  const root = await mkdtemp(path.join(tmpdir(), 'dlv-objects-'));
  return { root, store: fsObjectStore(root), close: () => rm(root, { recursive: true, force: true }) };
}

async function s3Harness(): Promise<Harness> {
  const directory = await mkdtemp(path.join(tmpdir(), 'dlv-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'proofs', configs: [] }],
  });
  const address = await server.run();
  const store = s3ObjectStore({
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket: 'proofs',
    region: 'us-east-1',
    // s3rver's fixed pair: it checks the requests' signatures against it.
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
  });
  return {
    store,
    async close() {
      store.close();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

const ADAPTERS: [string, () => Promise<Harness>][] = [
  ['filesystem', fsHarness],
  ['s3 (s3rver)', s3Harness],
];

describe.each(ADAPTERS)('ObjectStore: %s', (_name, make) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await make();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('keeps what it is given: bytes and content type, byte for byte', async () => {
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01, 0x02, 0xfe]);
    await harness.store.put('proofs/2026/11/att_0123456789abcdef/photo.jpg', bytes, 'image/jpeg');
    expect(await harness.store.exists('proofs/2026/11/att_0123456789abcdef/photo.jpg')).toBe(true);
    const got = await harness.store.get('proofs/2026/11/att_0123456789abcdef/photo.jpg');
    expect(got?.contentType).toBe('image/jpeg');
    expect(got?.bytes.equals(bytes)).toBe(true);
  });

  it('replaces an object written again under the same key', async () => {
    await harness.store.put('replace/one.png', Buffer.from('first'), 'image/png');
    await harness.store.put('replace/one.png', Buffer.from('second'), 'image/png');
    expect((await harness.store.get('replace/one.png'))?.bytes.toString()).toBe('second');
  });

  it('answers null and false for a key never written', async () => {
    expect(await harness.store.get('nothing/here.jpg')).toBeNull();
    expect(await harness.store.exists('nothing/here.jpg')).toBe(false);
  });

  it('deletes, and deleting again (or a key never written) is no error', async () => {
    await harness.store.put('gone/soon.jpg', Buffer.from('x'), 'image/jpeg');
    await harness.store.delete('gone/soon.jpg');
    expect(await harness.store.exists('gone/soon.jpg')).toBe(false);
    expect(await harness.store.get('gone/soon.jpg')).toBeNull();
    await expect(harness.store.delete('gone/soon.jpg')).resolves.toBeUndefined();
    await expect(harness.store.delete('never/was.jpg')).resolves.toBeUndefined();
  });

  it('keeps a large object whole (2 MB)', async () => {
    const bytes = Buffer.alloc(2 * 1024 * 1024, 7);
    bytes[bytes.length - 1] = 9;
    await harness.store.put('big/file.jpg', bytes, 'image/jpeg');
    expect((await harness.store.get('big/file.jpg'))?.bytes.equals(bytes)).toBe(true);
  });

  it.each([
    '../escape.jpg',
    'a/../../escape.jpg',
    '/etc/passwd',
    'a//b.jpg',
    '',
    'a/./b.jpg',
    'A/Upper.jpg',
    'a\\b.jpg',
    'a/b.jpg\0',
  ])('refuses the key %j before touching storage', async (key) => {
    await expect(harness.store.put(key, Buffer.from('x'), 'image/jpeg')).rejects.toThrow(
      /invalid object key/,
    );
    await expect(harness.store.get(key)).rejects.toThrow(/invalid object key/);
    await expect(harness.store.exists(key)).rejects.toThrow(/invalid object key/);
    await expect(harness.store.delete(key)).rejects.toThrow(/invalid object key/);
  });
});

describe('filesystem ObjectStore', () => {
  it('writes through a temporary file renamed into place: no temporary file left behind', async () => {
    const harness = await fsHarness();
    try {
      await harness.store.put('a/b/photo.jpg', Buffer.from('bytes'), 'image/jpeg');
      const files = await readdir(path.join(harness.root, 'a/b'));
      expect(files.sort()).toEqual(['photo.jpg', 'photo.jpg.content-type']);
    } finally {
      await harness.close();
    }
  });
});
