import type { PlaceStore } from './ports.ts';

/**
 * Which normalised addresses the shared cache (address_points) may hold, kept in memory so that an
 * order to an address never placed before costs no query: a Bloom filter of the cache's keys, read
 * whole once, then only the rows written since (by `seq`) every few seconds. It answers "maybe"
 * for every key it was given (and for about 2 % of the others with 850,000 keys in its 1 MiB) and
 * "no" for the rest. Until its first read it answers "maybe" for everything: the cache decides.
 */
export interface KnownAddresses {
  mayKnow(key: string): boolean;
  /** A key this instance just wrote: known here at once. */
  add(key: string): void;
  startWatching(): Promise<void>;
  stopWatching(): void;
  /** Reads the keys written since the last read (the watcher's tick; tests call it). */
  refresh(): Promise<void>;
}

const BITS = 1 << 23;
const HASHES = 6;
const BATCH = 20_000;

/** 32-bit FNV-1a of the key's UTF-16 units from a seed: two seeds give the double hashing's pair. */
function fnv(key: string, seed: number): number {
  let hash = seed;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

export function knownAddresses(store: Pick<PlaceStore, 'keysAfter'>, refreshEveryMs = 5_000): KnownAddresses {
  const bits = new Uint32Array(BITS / 32);
  let loaded = false;
  let lastSeq = 0;
  let timer: NodeJS.Timeout | null = null;
  let reading: Promise<void> | null = null;

  const positions = (key: string, visit: (bit: number) => boolean): boolean => {
    const h1 = fnv(key, 0x811c9dc5);
    const h2 = fnv(key, 0x050c5d1f) | 1;
    for (let i = 0; i < HASHES; i++) {
      if (!visit(((h1 + Math.imul(i, h2)) >>> 0) % BITS)) return false;
    }
    return true;
  };
  const add = (key: string) => {
    positions(key, (bit) => {
      bits[bit >>> 5]! |= 1 << (bit & 31);
      return true;
    });
  };

  async function readNew(): Promise<void> {
    for (;;) {
      const { keys, last } = await store.keysAfter(lastSeq, BATCH);
      for (const key of keys) add(key);
      lastSeq = Math.max(lastSeq, last);
      if (keys.length < BATCH) break;
    }
    loaded = true;
  }
  const refresh = () => (reading ??= readNew().finally(() => (reading = null)));

  return {
    mayKnow: (key) => !loaded || positions(key, (bit) => (bits[bit >>> 5]! & (1 << (bit & 31))) !== 0),
    add,
    refresh,
    async startWatching() {
      await refresh().catch(() => {});
      timer ??= setInterval(() => refresh().catch(() => {}), refreshEveryMs);
      timer.unref();
    },
    stopWatching() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
