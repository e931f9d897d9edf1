// What the app keeps on the phone, in IndexedDB: the queue of scans and deliveries not yet
// answered by the server (with a delivery's photo and signature as Blobs), and a few values
// (the courier, the last day loaded, the messages shown) so the app opens and works offline.
//
// Queue items: { seq, id, kind: 'scan'|'delivery', body, files?, happened_at, state }. `seq` is the
// store's own increasing key: the order in which things happened on this phone, the order they are sent.

const DB_NAME = 'dlv-courier';
const QUEUE = 'queue';
const META = 'meta';

let opened = null;

function db() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => {
        const database = request.result;
        const queue = database.createObjectStore(QUEUE, { keyPath: 'seq', autoIncrement: true });
        queue.createIndex('id', 'id', { unique: true });
        database.createObjectStore(META);
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  return opened;
}

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function store(name, mode) {
  return (await db()).transaction(name, mode).objectStore(name);
}

/** Adds an item at the end of the queue; resolves once it is on disk. */
export async function enqueue(item) {
  const database = await db();
  const tx = database.transaction(QUEUE, 'readwrite');
  tx.objectStore(QUEUE).add({ state: 'waiting', ...item });
  await new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** Every item still queued, oldest first. */
export async function queued() {
  return done((await store(QUEUE, 'readonly')).getAll());
}

/** Removes the items the server answered (applied or refused), by their queue keys. */
export async function remove(seqs) {
  const database = await db();
  const tx = database.transaction(QUEUE, 'readwrite');
  for (const seq of seqs) tx.objectStore(QUEUE).delete(seq);
  await new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
}

export async function getMeta(key) {
  return done((await store(META, 'readonly')).get(key));
}

export async function setMeta(key, value) {
  return done((await store(META, 'readwrite')).put(value, key));
}
