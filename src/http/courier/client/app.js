// The courier app: the day's rounds, scanning (camera, wedge scanner, typed reference) in a context
// (pickup, hub, loading, door), the door's proof, and the queue that carries it all to the server
// when the network allows. Served as ES modules under /courier/assets/<release>/.

import * as api from './api.js';
import { fill, h } from './dom.js';
import { renderDoor } from './door.js';
import { startScanner } from './scanner.js';
import { createSender } from './sender.js';
import { enqueue, getMeta, queued, setMeta } from './store.js';
import { listenForWedge } from './wedge.js';

const config = JSON.parse(document.getElementById('courier-config').textContent);
const REF = new RegExp(config.refPattern);
const MODES = ['pickup', 'hub', 'loading', 'door'];
const LOGIN = '/courier/login';
const PASSWORD = '/courier/password';
/** What a scan in each place moves the parcel to (the door's is its outcome). */
const MEANING = { pickup: 'picked_up', hub: 'in_transit', loading: 'out_for_delivery' };
const FINAL = ['delivered', 'returned', 'cancelled'];

const state = {
  locale: config.locale,
  courier: null,
  day: null,
  dayFromPhone: false,
  tab: 'day',
  mode: 'pickup',
  waiting: 0,
  messages: [],
  recent: [],
  flash: null,
  door: null,
  /** Per parcel, the statuses its queued scans (not yet answered) move it to, in order. */
  ahead: new Map(),
  /** Whether the courier shares their position during rounds (null: not known yet). */
  sharing: null,
};
let stopCamera = null;

const t = () => config.words[state.locale];
const statusText = (status) => t()[`status.${status}`] ?? status;

/** A scanned or typed code as the tracking reference it names, or null (not one of our labels). */
function refOf(code) {
  const first = String(code).split('|')[0].trim().toUpperCase();
  const match = /^DLV-?([0-9A-Z]{10})$/.exec(first);
  if (!match) return null;
  const ref = `DLV-${match[1].replace(/O/g, '0').replace(/[IL]/g, '1')}`;
  return REF.test(ref) ? ref : null;
}

/** The day's deliveries: tracking reference → status as the server last gave it. */
function deliveriesOfDay() {
  if (!state.day) return null;
  const refs = new Map();
  for (const round of state.day.rounds) {
    for (const stop of round.stops) {
      if (stop.kind === 'delivery') refs.set(stop.order.tracking_ref, stop.order.status);
    }
  }
  return refs;
}

/**
 * The parcel's status once the scans waiting on this phone are applied, each only where the
 * parcel can make that move (config.moves is the server's state machine): what the courier can do
 * next, online or not.
 */
function expectedStatus(ref, status) {
  let now = status;
  for (const target of state.ahead.get(ref) ?? []) {
    if ((config.moves[now] ?? []).includes(target)) now = target;
  }
  return now;
}

/** +33612345678 → 06 12 34 56 78: the national form a courier dials, as the label prints it (domain/labels). */
function dialForm(phone) {
  const french = /^\+33(\d{9})$/.exec(phone);
  return french ? `0${french[1]}`.replace(/(\d{2})(?=\d)/g, '$1 ') : phone;
}

/** `about`: the queued item the message is about, so the server's answer to it replaces it. */
function setFlash(kind, text, about = null) {
  state.flash = { kind, text, about };
  render();
}

async function remember() {
  await setMeta('messages', state.messages);
  await setMeta('recent', state.recent.slice(0, 30));
}

// ---- the queue ------------------------------------------------------------------------------

async function refreshCount() {
  const items = await queued();
  state.waiting = items.length;
  state.ahead = new Map();
  for (const item of items) {
    const ref = refOf(item.body.code);
    const target = item.body.context === 'door' ? item.body.outcome : MEANING[item.body.context];
    if (!ref || !target) continue;
    state.ahead.set(ref, [...(state.ahead.get(ref) ?? []), target]);
  }
  renderBadge();
}

const sender = createSender({
  onResult(item, result) {
    const entry = state.recent.find((r) => r.id === item.id);
    const ref = entry?.ref ?? result.tracking_ref ?? item.body.code;
    // One truth on the screen: the message about this scan gives way to the server's answer.
    const aboutThis = state.flash?.about === item.id;
    if (result.result === 'applied') {
      if (entry) Object.assign(entry, { state: 'applied', status: result.status });
      updateDayStatus(ref, result.status);
      if (aboutThis)
        state.flash = { kind: 'ok', text: fill(t().applied, { ref, status: statusText(result.status) }) };
    } else {
      // The red list says it: the green "recorded" beside it would contradict it.
      if (aboutThis) state.flash = null;
      const code = result.problem?.code ?? 'other';
      const known = t()[`problem.${code}`];
      // A refusal the app knows is said in the courier's language; another, with the server's words.
      const label =
        known ?? `${t()['problem.other']}${result.problem?.message ? ` — ${result.problem.message}` : ''}`;
      state.messages.unshift({
        id: item.id,
        ref,
        code,
        text: `${ref} — ${label}`,
        at: item.happened_at,
      });
      if (entry) Object.assign(entry, { state: 'refused', problem: code });
    }
    remember();
    render();
  },
  onSignedOut() {
    // The queue is in IndexedDB: it is sent after the courier signs in again.
    setFlash('error', t().sessionEnded);
    setTimeout(() => location.assign(LOGIN), 1500);
  },
  onChange: refreshCount,
});

function updateDayStatus(ref, status) {
  if (!state.day || !status) return;
  for (const round of state.day.rounds) {
    for (const stop of round.stops) {
      if (stop.kind === 'delivery' && stop.order.tracking_ref === ref) stop.order.status = status;
    }
  }
  setMeta('day', state.day);
}

async function queueItem(kind, body, files) {
  const item = { id: body.id, kind, body, happened_at: body.happened_at };
  if (files) item.files = files;
  await enqueue(item);
  const ref = refOf(body.code) ?? body.code;
  state.recent.unshift({ id: body.id, ref, mode: body.context, outcome: body.outcome, state: 'waiting' });
  state.recent = state.recent.slice(0, 30);
  await remember();
  await refreshCount();
  sender.run();
}

const newScan = (context, code, extra = {}) => ({
  id: crypto.randomUUID(),
  context,
  code,
  happened_at: new Date().toISOString(),
  ...extra,
});

/** A code from the camera, the wedge scanner or the field, in the current mode. */
async function handleCode(raw) {
  const code = String(raw).trim();
  const ref = refOf(code);
  if (!ref) {
    // Said at once; nothing is queued, nothing changes.
    setFlash('error', fill(t().notALabel, { code: code.slice(0, 40) }));
    return;
  }
  if (state.mode === 'door') {
    const deliveries = deliveriesOfDay();
    if (deliveries && !deliveries.has(ref)) {
      setFlash('error', fill(t().notOnRound, { ref }));
      return;
    }
    // Only a parcel out for delivery can be delivered (or fail): said at once, nothing queued.
    const status = deliveries ? expectedStatus(ref, deliveries.get(ref)) : 'out_for_delivery';
    if (status !== 'out_for_delivery') {
      const words = FINAL.includes(status) ? t().doorDone : t().doorNotYet;
      setFlash('error', fill(words, { ref, status: statusText(status) }));
      return;
    }
    openDoor(ref);
    return;
  }
  // The DataMatrix text (REF|SORT|n/N) is sent as read; a typed reference in its canonical form.
  const scan = newScan(state.mode, code.includes('|') ? code : ref);
  // Said before it is sent, so that the server's answer, whenever it comes, replaces it.
  state.flash = {
    kind: 'ok',
    text: fill(t().queued, { ref, mode: t()[`mode.${state.mode}`] }),
    about: scan.id,
  };
  await queueItem('scan', scan);
  render();
}

function openDoor(ref) {
  closeCamera();
  state.door = ref;
  render();
}

// ---- rendering ------------------------------------------------------------------------------

function renderBadge() {
  const badge = document.getElementById('waiting');
  if (!badge) return;
  badge.dataset.count = String(state.waiting);
  badge.textContent = state.waiting > 0 ? fill(t().waiting, { count: state.waiting }) : t().allSent;
  badge.classList.toggle('pending', state.waiting > 0);
  const offline = document.getElementById('offline');
  if (offline) offline.hidden = navigator.onLine;
}

function header() {
  const words = t();
  return h(
    'header.bar',
    null,
    h('span.title', null, words.appName),
    state.courier ? h('span.who', { id: 'courier-name' }, state.courier.name) : null,
    h(
      'button.lang',
      {
        type: 'button',
        id: 'lang-switch',
        lang: state.locale === 'fr' ? 'en' : 'fr',
        onclick: () => {
          state.locale = state.locale === 'fr' ? 'en' : 'fr';
          setMeta('locale', state.locale);
          render();
        },
      },
      words.switchTo,
    ),
  );
}

function statusLine() {
  const words = t();
  return h(
    'div.status-line',
    null,
    h('span.badge', { id: 'waiting', role: 'status', 'aria-live': 'polite' }),
    h('span.offline', { id: 'offline', hidden: navigator.onLine }, words.offline),
    h('button.link', { type: 'button', id: 'send-now', onclick: () => sender.resume() }, words.sendNow),
  );
}

function messagesBlock() {
  if (state.messages.length === 0) return null;
  const words = t();
  return h(
    'section.messages',
    { id: 'messages', role: 'alert' },
    h('h2', null, words.refusedTitle),
    h(
      'ul',
      null,
      state.messages.map((m) => h('li', { dataset: { id: m.id, code: m.code } }, m.text)),
    ),
    h(
      'button.link',
      {
        type: 'button',
        onclick: () => {
          state.messages = [];
          remember();
          render();
        },
      },
      words.dismiss,
    ),
  );
}

function flashBlock() {
  if (!state.flash) return null;
  return h(`p.flash.${state.flash.kind}`, { id: 'flash', role: 'status' }, state.flash.text);
}

function tabs() {
  const words = t();
  const tab = (name, label) =>
    h(
      'button',
      {
        type: 'button',
        id: `tab-${name}`,
        'aria-pressed': String(state.tab === name),
        onclick: () => {
          if (name !== 'scan') closeCamera();
          state.tab = name;
          state.flash = null;
          render();
        },
      },
      label,
    );
  return h('nav.tabs', null, tab('day', words.tabDay), tab('scan', words.tabScan));
}

function stopView(stop) {
  const words = t();
  if (stop.kind === 'pickup') {
    const p = stop.pickup;
    return h(
      'li.stop.pickup',
      { dataset: { pickup: p.id } },
      h('div.stop-head', null, h('strong', null, p.brand_name), h('span.status', null, statusText(p.status))),
      h('p', null, p.pickup_address),
      h(
        'p.muted',
        null,
        fill(words.window, { start: p.window.start, end: p.window.end }),
        ' · ',
        fill(words.parcels, { count: p.parcels.length }),
      ),
    );
  }
  const o = stop.order;
  return h(
    'li.stop.delivery',
    { dataset: { ref: o.tracking_ref } },
    h(
      'div.stop-head',
      null,
      h('strong', null, o.recipient ?? ''),
      h('span.status', { dataset: { status: o.status } }, statusText(o.status)),
    ),
    // The address as the recipient gave it usually holds the postcode and city already.
    h(
      'p',
      null,
      o.address ?? '',
      o.postcode && !(o.address ?? '').includes(o.postcode) ? `, ${o.postcode} ${o.city ?? ''}` : '',
    ),
    o.instructions ? h('p.instructions', null, h('b', null, `${words.instructions} `), o.instructions) : null,
    // Where the recipient allows the parcel to be left when out (the tracking page's self-service).
    o.safe_place
      ? h(
          'p.instructions.safe-place',
          null,
          h('b', null, `${words.safePlace} `),
          words[`safePlace.${o.safe_place.kind}`] ?? o.safe_place.kind,
          o.safe_place.detail ? ` — ${o.safe_place.detail}` : '',
        )
      : null,
    wayView(stop),
    h(
      'p.muted',
      null,
      o.tracking_ref,
      o.sort_code ? ` · ${o.sort_code}` : '',
      o.failed_attempts ? ` · ${fill(words.failedAttempts, { count: o.failed_attempts })}` : '',
    ),
    h(
      'div.actions',
      null,
      o.phone
        ? h('a.button.secondary', { href: `tel:${o.phone}` }, fill(words.call, { phone: dialForm(o.phone) }))
        : null,
      // Only what can be done: the door once the parcel is out for delivery (its loading scan
      // queued on the phone counts), not before it is picked up, nor after.
      expectedStatus(o.tracking_ref, o.status) === 'out_for_delivery'
        ? h(
            'button.primary',
            { type: 'button', dataset: { action: 'door' }, onclick: () => openDoor(o.tracking_ref) },
            words.atTheDoor,
          )
        : null,
    ),
  );
}

const formatDistance = (metres) =>
  metres < 1000
    ? `${Math.round(metres / 10) * 10} m`
    : `${new Intl.NumberFormat(state.locale === 'fr' ? 'fr-FR' : 'en-GB', { maximumFractionDigits: 1 }).format(metres / 1000)} km`;

/** The estimate, the distance to the next stop, and "Navigate": the phone's map app or a named one. */
function wayView(stop) {
  const words = t();
  const time = stop.eta
    ? new Intl.DateTimeFormat(state.locale === 'fr' ? 'fr-FR' : 'en-GB', {
        hour: '2-digit',
        minute: '2-digit',
        timeZone: 'Europe/Paris',
      }).format(new Date(stop.eta))
    : null;
  const facts = [
    time ? fill(words.eta, { time }) : null,
    typeof stop.next_stop_distance_m === 'number'
      ? fill(words.nextStop, { distance: formatDistance(stop.next_stop_distance_m) })
      : null,
  ].filter(Boolean);
  const nav = stop.navigation;
  const out = (href, label, name) =>
    h(
      'a.button.secondary.nav-link',
      { href, target: '_blank', rel: 'noopener', dataset: { nav: name } },
      label,
    );
  return h(
    'div.way',
    null,
    facts.length ? h('p.way-facts', null, facts.join(' · ')) : null,
    nav
      ? h(
          'div.navigate',
          null,
          h(
            'a.button.primary.nav-link',
            { href: nav.geo, dataset: { nav: 'geo' } },
            `${words.navigate} · ${words.navigateMapApp}`,
          ),
          out(nav.google_maps, 'Google Maps', 'google_maps'),
          out(nav.waze, 'Waze', 'waze'),
          out(nav.apple_maps, state.locale === 'fr' ? 'Plans' : 'Apple Maps', 'apple_maps'),
        )
      : null,
  );
}

/** The consent to share the position, and its sending while on (at most once a minute). */
let positionWatch = null;
let lastPositionSent = 0;
function watchPosition(on) {
  if (!on || !navigator.geolocation) {
    if (positionWatch !== null) navigator.geolocation.clearWatch(positionWatch);
    positionWatch = null;
    return;
  }
  if (positionWatch !== null) return;
  positionWatch = navigator.geolocation.watchPosition(
    (p) => {
      if (Date.now() - lastPositionSent < 60_000 || !navigator.onLine) return;
      lastPositionSent = Date.now();
      api
        .postPosition({
          latitude: Math.round(p.coords.latitude * 1e6) / 1e6,
          longitude: Math.round(p.coords.longitude * 1e6) / 1e6,
          accuracy: Math.round(p.coords.accuracy),
          recorded_at: new Date(p.timestamp).toISOString(),
        })
        .catch(() => {});
    },
    () => {},
    { enableHighAccuracy: false, maximumAge: 30_000 },
  );
}

function sharingView() {
  const words = t();
  if (state.sharing === null || state.sharing === undefined) return null;
  const box = h('input', { type: 'checkbox', id: 'share-position', checked: state.sharing });
  box.addEventListener('change', async () => {
    try {
      const answer = await api.setPositionSharing(box.checked);
      state.sharing = answer.sharing;
    } catch {
      box.checked = state.sharing;
    }
    watchPosition(state.sharing);
  });
  return h(
    'div.share-position',
    null,
    h('label', { for: 'share-position' }, box, ` ${words.sharePosition}`),
    h('p.muted', null, words.sharePositionHint),
  );
}

function dayView() {
  const words = t();
  if (!state.day) return h('p.muted', { id: 'day-missing' }, words.dayUnavailable);
  const date = new Intl.DateTimeFormat(state.locale === 'fr' ? 'fr-FR' : 'en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  }).format(new Date(`${state.day.date}T12:00:00`));
  return h(
    'section.day',
    { id: 'day' },
    h('h2', null, fill(words.dayTitle, { date })),
    state.dayFromPhone ? h('p.muted', null, words.savedDay) : null,
    sharingView(),
    state.day.rounds.length === 0 ? h('p.muted', null, words.noRounds) : null,
    state.day.rounds.map((round) => {
      const pickups = round.stops.filter((s) => s.kind === 'pickup');
      const deliveries = round.stops.filter((s) => s.kind === 'delivery');
      return h(
        'article.round',
        { dataset: { round: round.id } },
        h(
          'h3',
          null,
          round.name,
          h('span.muted', null, ` · ${words.sortCodes} ${round.sort_codes.join(', ')}`),
        ),
        pickups.length ? h('h4', null, words.pickups) : null,
        pickups.length ? h('ol.stops', null, pickups.map(stopView)) : null,
        deliveries.length ? h('h4', null, words.deliveries) : null,
        deliveries.length ? h('ol.stops', null, deliveries.map(stopView)) : null,
      );
    }),
    h('p.account-links', null, h('a', { href: PASSWORD, id: 'change-password' }, words.changePassword)),
  );
}

function closeCamera() {
  if (stopCamera) stopCamera();
  stopCamera = null;
}

function scanView() {
  const words = t();
  const video = h('video.camera', { id: 'scan-video', playsinline: true, muted: true, hidden: !stopCamera });
  const cameraButton = h(
    'button.secondary',
    { type: 'button', id: 'camera-toggle' },
    stopCamera ? words.stopCamera : words.startCamera,
  );
  cameraButton.addEventListener('click', async () => {
    if (stopCamera) {
      closeCamera();
      render();
      return;
    }
    video.hidden = false;
    cameraButton.textContent = words.stopCamera;
    const stop = await startScanner(video, {
      assets: config.assets,
      onCode: handleCode,
      keyOf: (text) => refOf(text) ?? text,
      onError: (what) => setFlash('error', what === 'camera' ? t().cameraDenied : t().decoderFailed),
    });
    stopCamera = stop;
  });
  const input = h('input', {
    id: 'code',
    name: 'code',
    type: 'text',
    inputmode: 'text',
    autocomplete: 'off',
    autocapitalize: 'characters',
    spellcheck: 'false',
    placeholder: words.codePlaceholder,
    enterkeyhint: 'done',
  });
  const form = h(
    'form.code-form',
    { id: 'code-form' },
    h('label', { for: 'code' }, words.codeLabel),
    h('div.inline', null, input, h('button.primary', { type: 'submit' }, words.submitCode)),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = input.value;
    input.value = '';
    if (value.trim()) handleCode(value);
    input.focus();
  });
  const modes = h(
    'fieldset.modes',
    null,
    h('legend', null, words.modeLabel),
    h(
      'div.segmented',
      null,
      MODES.map((mode) =>
        h(
          'button',
          {
            type: 'button',
            id: `mode-${mode}`,
            'aria-pressed': String(state.mode === mode),
            onclick: () => {
              state.mode = mode;
              setMeta('mode', mode);
              state.flash = null;
              render();
            },
          },
          words[`mode.${mode}`],
        ),
      ),
    ),
  );
  // The camera element survives re-renders while it is streaming.
  const live = stopCamera ? document.getElementById('scan-video') : null;
  return h(
    'section.scan',
    { id: 'scan' },
    modes,
    live ?? video,
    cameraButton,
    form,
    h(
      'section.recent',
      null,
      h('h2', null, words.recent),
      h(
        'ul',
        { id: 'recent' },
        state.recent
          .slice(0, 10)
          .map((r) =>
            h(
              `li.${r.state}`,
              { dataset: { id: r.id, state: r.state } },
              h('strong', null, r.ref),
              ` · ${words[`mode.${r.mode}`] ?? r.mode}`,
              r.state === 'applied' ? ` → ${statusText(r.status)}` : '',
              r.state === 'refused' ? ` → ${words[`problem.${r.problem}`] ?? words['problem.other']}` : '',
              r.state === 'waiting' ? ' …' : '',
            ),
          ),
      ),
    ),
  );
}

function render() {
  document.documentElement.lang = state.locale;
  document.title = t().appName;
  const main = h('main', { id: 'app' });
  if (state.door && document.getElementById('door')?.dataset.ref === state.door) {
    // The door screen holds the photo and the signature being made: an answer arriving meanwhile
    // updates the counter, never the screen.
    renderBadge();
    return;
  }
  if (state.door) {
    const ref = state.door;
    const root = h('div');
    main.append(statusLine(), root);
    document.body.replaceChildren(header(), main);
    renderDoor(root, {
      ref,
      t: t(),
      onDelivered: (extra, files) => {
        const kept = {};
        if (files.photo) kept.photo = files.photo;
        if (files.signature) kept.signature = files.signature;
        return queueItem(
          'delivery',
          newScan('door', ref, { outcome: 'delivered', ...JSON.parse(JSON.stringify(extra)) }),
          kept,
        );
      },
      onFailed: (reason) => queueItem('scan', newScan('door', ref, { outcome: 'failed_attempt', reason })),
      onClose: () => {
        state.door = null;
        render();
      },
    });
    renderBadge();
    return;
  }
  // A wedge scanner may be typing into the field when an answer re-renders the screen: what it
  // typed so far, and the focus, carry over to the new field.
  const field = document.getElementById('code');
  const typing = field ? { value: field.value, focused: document.activeElement === field } : null;
  const bar = header();
  main.append(
    statusLine(),
    flashBlock() ?? '',
    messagesBlock() ?? '',
    tabs(),
    state.tab === 'day' ? dayView() : scanView(),
  );
  document.body.replaceChildren(bar, main);
  renderBadge();
  const next = document.getElementById('code');
  if (next && typing) next.value = typing.value;
  if (next && (typing?.focused || !stopCamera)) next.focus();
}

// ---- start ----------------------------------------------------------------------------------

async function loadDay() {
  try {
    state.day = await api.day();
    state.dayFromPhone = false;
    await setMeta('day', state.day);
  } catch (err) {
    if (err instanceof api.SignedOut) throw err;
    // Offline: the day last loaded on this phone.
  }
}

async function start() {
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('/courier/sw.js', { scope: '/courier/' }).catch(() => {});
  }
  const [courier, csrf, day, mode, locale, messages, recent] = await Promise.all(
    ['courier', 'csrf', 'day', 'mode', 'locale', 'messages', 'recent'].map(getMeta),
  );
  Object.assign(state, {
    courier: courier ?? null,
    day: day ?? null,
    dayFromPhone: Boolean(day),
    mode: MODES.includes(mode) ? mode : 'pickup',
    messages: messages ?? [],
    recent: recent ?? [],
  });
  if (locale) state.locale = locale;
  api.setCsrfToken(csrf ?? null);
  await refreshCount();
  render();
  listenForWedge((code) => {
    if (!state.door) handleCode(code);
  });
  window.addEventListener('online', () => {
    renderBadge();
    sender.resume();
  });
  window.addEventListener('offline', renderBadge);
  try {
    const who = await api.me();
    state.courier = who.courier;
    if (!locale && who.courier.locale) state.locale = who.courier.locale;
    await setMeta('courier', who.courier);
    await setMeta('csrf', who.csrf_token);
    await loadDay();
    // The consent is asked again at each start (never assumed from a phone's memory).
    state.sharing = (await api.positionSharing().catch(() => ({ sharing: null }))).sharing;
    watchPosition(state.sharing === true);
  } catch (err) {
    if (err instanceof api.SignedOut) {
      location.assign(LOGIN);
      return;
    }
    // Offline start: what the phone kept.
  }
  render();
  document.body.dataset.ready = 'true';
  sender.run();
}

start();
