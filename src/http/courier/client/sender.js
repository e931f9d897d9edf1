// Sends the queue, oldest first: consecutive plain scans in one POST …/scans (at most 500), a
// delivery (a door scan with its files) alone as multipart. What the server answered, applied or
// refused, leaves the queue (a refusal is shown to the courier); what the network lost stays and is
// sent again later, with the same ids, so the server applies it once. Runs on start, on `online`,
// after each new item, and on its own retry timer.

import { me, postDelivery, postScans, Refused, SignedOut } from './api.js';
import { queued, remove } from './store.js';

const MAX_BATCH = 500;
const MAX_BACKOFF_MS = 60_000;

/** The server will never take this request as it is (retrying would not help). */
const isFinal = (err) =>
  err instanceof Refused && err.status >= 400 && err.status < 500 && ![403, 408, 429].includes(err.status);

export function createSender({ onResult, onSignedOut, onChange }) {
  let running = false;
  let again = false;
  let backoff = 0;
  let timer = null;
  let paused = false;

  function schedule() {
    backoff = Math.min(backoff ? backoff * 2 : 2000, MAX_BACKOFF_MS);
    clearTimeout(timer);
    timer = setTimeout(run, backoff);
  }

  function refusal(item, err) {
    return {
      id: item.id,
      result: 'refused',
      tracking_ref: null,
      status: null,
      problem: { code: err.code, message: err.message },
    };
  }

  async function drain() {
    let single = false;
    let csrfRetried = false;
    for (;;) {
      const items = await queued();
      if (items.length === 0) {
        backoff = 0;
        return;
      }
      const first = items[0];
      let batch = [first];
      if (first.kind === 'scan' && !single) {
        batch = [];
        for (const item of items) {
          if (item.kind !== 'scan' || batch.length === MAX_BATCH) break;
          batch.push(item);
        }
      }
      try {
        if (first.kind === 'scan') {
          const { results } = await postScans(batch.map((item) => item.body));
          const byId = new Map(results.map((r) => [r.id, r]));
          for (const item of batch) {
            onResult(item, byId.get(item.id) ?? refusal(item, { code: 'no_answer', message: '' }));
          }
        } else {
          onResult(first, await postDelivery(first.body, first.files));
        }
        await remove(batch.map((item) => item.seq));
        backoff = 0;
        single = false;
        csrfRetried = false;
        onChange();
      } catch (err) {
        if (err instanceof SignedOut) {
          // The queue stays on the phone; it is sent once the courier has signed in again.
          paused = true;
          onSignedOut();
          return;
        }
        if (err instanceof Refused && err.status === 403 && !csrfRetried) {
          // A token from an older session: ask for the current one, then try again once.
          csrfRetried = true;
          try {
            await me();
          } catch (meErr) {
            if (meErr instanceof SignedOut) {
              paused = true;
              onSignedOut();
              return;
            }
            schedule();
            return;
          }
          continue;
        }
        if (isFinal(err) || (err instanceof Refused && err.status === 403)) {
          // One bad scan must not take the others of its batch with it: they go one by one.
          if (batch.length > 1) {
            single = true;
            continue;
          }
          onResult(first, refusal(first, err));
          await remove([first.seq]);
          onChange();
          continue;
        }
        // Offline, or the server is down: everything stays queued for the next try.
        schedule();
        return;
      }
    }
  }

  async function run() {
    if (paused) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    clearTimeout(timer);
    try {
      do {
        again = false;
        await drain();
      } while (again && !paused);
    } finally {
      running = false;
      onChange();
    }
  }

  return {
    run,
    /** After a new sign-in, or when the network comes back: try at once. */
    resume() {
      paused = false;
      backoff = 0;
      run();
    },
  };
}
