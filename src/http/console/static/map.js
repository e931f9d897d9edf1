// The console's Map page: draws the day's stops, each round's line and the couriers' shared
// positions with Leaflet (served by the console, no third-party origin) from the page's JSON
// (`data-src`), and swaps in the list beside the map (`data-list`) at the same time: on opening, on
// each change of the board's stream (`data-events`) and every `data-refresh-ms` (positions are not
// on the board). The words are the server's: a marker's popup shows its stop's line of the list,
// with the same link. Without JavaScript the list alone is the page.
(() => {
  const el = document.getElementById('map');
  const listBox = document.getElementById('map-list');
  const live = document.getElementById('map-live');
  if (!el || !listBox || typeof L === 'undefined') return;

  // Île-de-France's centre: where the map opens on a day with nothing placed yet.
  const PARIS = [48.8566, 2.3522];
  const map = L.map(el, { attributionControl: false, minZoom: 5, maxZoom: 18 }).setView(PARIS, 11);
  L.control.scale({ imperial: false }).addTo(map);
  if (el.dataset.tiles) {
    // Only when the operator configured tiles: otherwise the map asks for nothing at all.
    const credits = L.control.attribution({ prefix: false }).addTo(map);
    L.tileLayer(el.dataset.tiles, { maxZoom: 19 }).addTo(map);
    // Leaflet writes attributions as HTML: the setting is plain text.
    if (el.dataset.attribution) credits.addAttribution(escapeHtml(el.dataset.attribution));
  } else el.classList.add('plain');

  const drawn = L.layerGroup().addTo(map);
  /** The stops' markers by their line's element id in the list. */
  const markers = new Map();
  let fitted = false;
  let openId = null;

  function escapeHtml(text) {
    const box = document.createElement('span');
    box.textContent = text;
    return box.innerHTML;
  }

  /** A popup's content when it opens: the stop's line of the list as it is now (its link first). */
  function popupOf(id) {
    return () => {
      const box = document.createElement('div');
      box.className = 'map-popup';
      const item = document.getElementById(id);
      if (item) for (const child of item.childNodes) box.appendChild(child.cloneNode(true));
      return box;
    };
  }

  function draw(data) {
    // Removing a marker closes its popup: the one open is opened again on the new marker.
    const reopen = openId;
    drawn.clearLayers();
    markers.clear();
    const colours = new Map(data.rounds.map((r) => [r.id, r.colour]));
    const colourOf = (roundId) => (roundId === null ? 'map-none' : `map-c${colours.get(roundId)}`);
    const bounds = [];
    const lines = new Map();
    for (const s of data.stops) {
      if (s.lat === null || s.lng === null) continue;
      bounds.push([s.lat, s.lng]);
      if (s.round_id === null) continue;
      if (!lines.has(s.round_id)) lines.set(s.round_id, []);
      lines.get(s.round_id).push([s.lat, s.lng]);
    }
    // Lines first, so that the stops are drawn over them.
    for (const [roundId, points] of lines)
      if (points.length > 1)
        L.polyline(points, { className: `map-line ${colourOf(roundId)}`, weight: 3, interactive: false })
          .addTo(drawn)
          .getElement()
          ?.setAttribute('data-round', roundId);
    for (const s of data.stops) {
      if (s.lat === null || s.lng === null) continue;
      const state = `${colourOf(s.round_id)}${s.done ? ' map-done' : ''}`;
      // Not in the tab order: the list beside the map is the keyboard's way to the same links.
      const marker =
        s.kind === 'pickup'
          ? L.marker([s.lat, s.lng], {
              icon: L.divIcon({ className: `map-pickup ${state}`, iconSize: [16, 16] }),
              keyboard: false,
            })
          : L.circleMarker([s.lat, s.lng], { className: `map-stop ${state}`, radius: 7, weight: 2 });
      marker.bindPopup(popupOf(s.element), { minWidth: 200 });
      marker.on('popupopen', () => {
        openId = s.element;
      });
      marker.on('popupclose', () => {
        if (openId === s.element) openId = null;
      });
      marker.addTo(drawn);
      const node = marker.getElement();
      node?.setAttribute('data-ref', s.ref);
      if (s.round_id) node?.setAttribute('data-round', s.round_id);
      markers.set(s.element, marker);
    }
    for (const c of data.couriers) {
      bounds.push([c.lat, c.lng]);
      L.circleMarker([c.lat, c.lng], {
        className: `map-courier ${colourOf(c.round_id)}`,
        radius: 9,
        weight: 4,
      })
        .bindTooltip(c.name, {
          permanent: true,
          direction: 'right',
          offset: [10, 0],
          className: 'map-courier-label',
        })
        .addTo(drawn)
        .getElement()
        ?.setAttribute('data-courier', c.id);
    }
    if (!fitted && bounds.length > 0) {
      map.fitBounds(bounds, { padding: [30, 30], maxZoom: 15 });
      fitted = true;
    }
    if (reopen && markers.has(reopen)) markers.get(reopen).openPopup();
  }

  // A busy day's stream says "changed" at each scan: the map and its list (a few hundred kilobytes
  // with 1,500 stops) are fetched at most every MIN_GAP_MS, the last change always included.
  const MIN_GAP_MS = 1000;
  let busy = false;
  let again = false;
  let last = 0;
  let later = null;
  async function refresh() {
    if (busy) {
      again = true;
      return;
    }
    const wait = last + MIN_GAP_MS - Date.now();
    if (wait > 0) {
      if (later === null)
        later = setTimeout(() => {
          later = null;
          refresh();
        }, wait);
      return;
    }
    busy = true;
    last = Date.now();
    try {
      const get = (url, accept) => fetch(url, { credentials: 'same-origin', headers: { accept } });
      const [data, list] = await Promise.all([
        get(el.dataset.src, 'application/json'),
        get(el.dataset.list, 'text/html'),
      ]);
      // Signed out meanwhile (the fetch followed the redirect to the sign-in page): show that page.
      if (data.redirected || list.redirected || !data.ok || !list.ok) {
        window.location.reload();
        return;
      }
      const [json, html] = await Promise.all([data.json(), list.text()]);
      listBox.innerHTML = html;
      draw(json);
      el.dataset.drawn = json.updated_at;
    } catch {
      // The next event, reconnection or period refreshes it.
    } finally {
      busy = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  }

  // Keyboard: focusing a stop's link in the list opens its marker's popup, so the map shows where it is.
  listBox.addEventListener('focusin', (event) => {
    const item = event.target.closest('li[id]');
    const marker = item && markers.get(item.id);
    if (marker) marker.openPopup();
  });

  refresh();
  setInterval(refresh, Number(el.dataset.refreshMs) || 30_000);
  if (live && typeof EventSource !== 'undefined') {
    const events = new EventSource(el.dataset.events);
    events.addEventListener('board', refresh);
    events.addEventListener('open', () => {
      live.textContent = live.dataset.live;
      live.className = 'live on';
      // What changed before the stream (re)started is drawn now; what changes next is its events'.
      refresh();
    });
    events.addEventListener('error', () => {
      live.textContent = live.dataset.offline;
      live.className = 'live off';
    });
  }
})();
