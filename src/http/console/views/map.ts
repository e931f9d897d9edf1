import { type DayMap, type MapStop, unplacedStops } from '../../../domain/console/day-map.ts';
import { html, type SafeHtml } from '../../shared/html.ts';
import { CONSOLE_PATH, type ConsoleContext, timeOf } from './layout.ts';

/** How many colours the page's palette has (map.css: .map-c0 … .map-c9); rounds beyond reuse them. */
const MAP_COLOURS = 10;

const colourClass = (colour: number) => `map-c${colour % MAP_COLOURS}`;

/** Where selecting a stop leads: a delivery to its order's page, a pickup to its brand's. */
const stopHref = (s: MapStop): string =>
  s.kind === 'delivery'
    ? `${CONSOLE_PATH}/orders/${encodeURIComponent(s.ref)}`
    : `${CONSOLE_PATH}/brands/${encodeURIComponent(s.brandId)}`;

/** The element id of a stop's line in the list: the map's popup shows that line's content. */
const stopElementId = (s: MapStop) => `map-stop-${s.kind}-${s.ref}`;

function statusWord(ctx: ConsoleContext, s: MapStop): string {
  return ctx.t(s.kind === 'delivery' ? `map.status.${s.status}` : `status.${s.status}`);
}

/** One stop as the list shows it and the map's popup repeats it: its link, then what it is. */
function stopItem(ctx: ConsoleContext, s: MapStop): SafeHtml {
  const { t } = ctx;
  const what = s.kind === 'delivery' ? s.ref : `${t('map.pickup')} — ${s.brandName}`;
  const facts = [
    s.position !== null ? t('map.stop', { n: String(s.position) }) : null,
    s.kind === 'delivery' ? s.brandName : null,
  ].filter((x) => x !== null);
  return html`<li id="${stopElementId(s)}" data-ref="${s.ref}" data-kind="${s.kind}"${s.done ? html` class="done"` : ''}>
<a href="${stopHref(s)}">${what}</a>
<span class="map-facts">${facts.join(' · ')}${facts.length > 0 ? ' · ' : ''}<span class="tag ${s.done ? 'collected' : ''}">${statusWord(ctx, s)}</span>${
    s.point === null
      ? html` <span class="tag missed">${t('map.noPosition')}</span>`
      : s.kind === 'pickup' && s.precision === 'postcode'
        ? html` <span class="map-approx">${t('map.approximate')}</span>`
        : ''
  }</span></li>`;
}

/**
 * The list beside the map (what the page's script fetches again on each change): the stops without
 * a position first, then each round's stops in order, the pickups on no round, the couriers'
 * positions. It is the keyboard's way to every stop the map draws.
 */
export function mapList(ctx: ConsoleContext, map: DayMap, roundId: string | null): SafeHtml {
  const { t } = ctx;
  const unplaced = unplacedStops(map);
  const rounds = roundId ? map.rounds.filter((r) => r.id === roundId) : map.rounds;
  const loose = map.stops.filter((s) => s.roundId === null);
  const roundName = new Map(map.rounds.map((r) => [r.id, r]));
  return html`<p class="updated">${t('today.updated', { time: timeOf(ctx, map.at) })}</p>
${
  unplaced.length > 0
    ? html`<section class="map-unplaced" aria-labelledby="h-map-unplaced">
<h3 id="h-map-unplaced">${t('map.unplaced', { count: String(unplaced.length) })}</h3>
<p class="hint">${t('map.unplacedHint')}</p>
<ul>${unplaced.map((s) => html`<li><a href="${stopHref(s)}">${s.kind === 'delivery' ? s.ref : `${t('map.pickup')} — ${s.brandName}`}</a></li>`)}</ul>
</section>`
    : ''
}
${rounds.length === 0 && loose.length === 0 ? html`<p>${t('map.none')}</p>` : ''}
${rounds.map(
  (r) => html`<section class="map-round ${colourClass(r.colour)}" aria-labelledby="h-${r.id}">
<h3 id="h-${r.id}"><span class="map-swatch" aria-hidden="true"></span> ${r.name}</h3>
<p class="map-facts">${r.courierName ?? t('map.noCourier')} · ${t('map.progress', { done: String(r.done), stops: String(r.stops) })}</p>
<ul>${map.stops.filter((s) => s.roundId === r.id).map((s) => stopItem(ctx, s))}</ul>
</section>`,
)}
${
  loose.length > 0
    ? html`<section class="map-round map-loose" aria-labelledby="h-map-loose">
<h3 id="h-map-loose"><span class="map-swatch" aria-hidden="true"></span> ${t('map.noRound')}</h3>
<ul>${loose.map((s) => stopItem(ctx, s))}</ul>
</section>`
    : ''
}
<section class="map-couriers" aria-labelledby="h-map-couriers">
<h3 id="h-map-couriers">${t('map.couriers')}</h3>
${
  map.couriers.length === 0
    ? html`<p class="hint">${t('map.noCouriers')}</p>`
    : html`<ul>${map.couriers.map(
        (c) =>
          html`<li>${t('map.courierAt', { name: c.name, time: timeOf(ctx, c.at) })} · ${roundName.get(c.roundId)?.name ?? ''}${c.accuracyM !== null ? html` · ${t('map.accuracy', { metres: String(c.accuracyM) })}` : ''}</li>`,
      )}</ul>`
}
</section>`;
}

/** The map's JSON (what the page's script draws): no words, the list carries them. */
export function mapJson(map: DayMap) {
  return {
    date: map.date,
    updated_at: map.at.toISOString(),
    rounds: map.rounds.map((r) => ({
      id: r.id,
      name: r.name,
      courier: r.courierName,
      colour: r.colour % MAP_COLOURS,
      stops: r.stops,
      done: r.done,
    })),
    stops: map.stops.map((s) => ({
      kind: s.kind,
      ref: s.ref,
      element: stopElementId(s),
      round_id: s.roundId,
      position: s.position,
      brand: s.brandName,
      status: s.status,
      done: s.done,
      lat: s.point?.lat ?? null,
      lng: s.point?.lng ?? null,
      precision: s.precision,
      href: stopHref(s),
    })),
    unplaced: unplacedStops(map).length,
    couriers: map.couriers.map((c) => ({
      id: c.id,
      name: c.name,
      round_id: c.roundId,
      lat: c.point.lat,
      lng: c.point.lng,
      accuracy_m: c.accuracyM,
      at: c.at.toISOString(),
    })),
  };
}
