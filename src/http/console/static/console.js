// The console's only script: the Today board's live updates. The server sends a `board` event over
// server-sent events whenever the day's board changes; the board's fragment is then fetched again
// and swapped in. Without JavaScript the page still works (reload to see changes).
(() => {
  const board = document.getElementById('board');
  const live = document.getElementById('live');
  if (!board || !live || typeof EventSource === 'undefined') return;
  let busy = false;
  let again = false;
  async function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const res = await fetch(board.dataset.src, {
        credentials: 'same-origin',
        headers: { accept: 'text/html' },
      });
      // Signed out meanwhile (the fetch followed the redirect to the sign-in page): show that page.
      if (res.redirected || !res.ok) {
        window.location.reload();
        return;
      }
      board.innerHTML = await res.text();
    } catch {
      // The next event or reconnection refreshes it.
    } finally {
      busy = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  }
  const events = new EventSource(board.dataset.events);
  events.addEventListener('board', refresh);
  events.addEventListener('open', () => {
    live.textContent = live.dataset.live;
    live.className = 'live on';
    refresh();
  });
  events.addEventListener('error', () => {
    live.textContent = live.dataset.offline;
    live.className = 'live off';
  });
})();
