import type { Courier } from '../../../domain/couriers/courier.ts';
import type { VehicleJson } from '../../../domain/fleet/fleet.ts';
import type { RoundJson } from '../../../domain/rounds/round-service.ts';
import { planningTranslate } from '../../../i18n/console-planning.ts';
import { html, type SafeHtml } from '../../shared/html.ts';
import { CONSOLE_PATH, type ConsoleContext, csrfField, layout, timeOf } from './layout.ts';

export const PLANNING_PATH = `${CONSOLE_PATH}/planning`;

type Stop = RoundJson['stops'][number];

/** A stop on no round, and why: the optimiser's reason just after planning, else as read later. */
export interface UnplacedRow {
  kind: 'pickup' | 'delivery';
  /** The tracking reference, or the pickup's id. */
  label: string;
  where: string | null;
  reason: string;
}

export interface PlanningView {
  date: string;
  rounds: RoundJson[];
  /** Every courier (the disabled ones name their old rounds; only enabled ones are offered). */
  couriers: Courier[];
  vehicles: VehicleJson[];
  unplaced: UnplacedRow[];
  /** Whether the operator's role may change the plan (rounds:write). */
  canWrite: boolean;
  /** A success or error note above the plan. */
  note: SafeHtml | string;
}

/** How a form names a stop: `o:<tracking ref>` or `p:<pickup id>` (parsed by planning-routes.ts). */
const stopValue = (s: Stop): string =>
  s.kind === 'delivery' ? `o:${s.order.tracking_ref}` : `p:${s.pickup.id}`;
export const stopLabel = (s: Stop): string => (s.kind === 'delivery' ? s.order.tracking_ref : s.pickup.id);
/** How a "Move to" option names the target round: its id and the version the page showed. */
const targetValue = (r: RoundJson): string => `${r.id}@${r.version}`;

function kilometres(ctx: ConsoleContext, metres: number): string {
  return new Intl.NumberFormat(ctx.locale === 'fr' ? 'fr-FR' : 'en-GB', {
    style: 'unit',
    unit: 'kilometer',
    maximumFractionDigits: 1,
  }).format(metres / 1000);
}

function hoursMinutes(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')}`;
}

function stopLine(ctx: ConsoleContext, p: ReturnType<typeof planningTranslate>, s: Stop): SafeHtml {
  const arrival = s.planned_arrival
    ? ` · ${p('plan.arrival', { time: timeOf(ctx, new Date(s.planned_arrival)).slice(0, 5) })}`
    : '';
  const pin = s.pinned ? html` <span class="tag pin">${p('plan.pinned')}</span>` : '';
  if (s.kind === 'pickup')
    return html`<span class="pos">${s.position}</span><span class="what"><strong>${p('plan.pickup', { brand: s.pickup.brand_name })}</strong>${pin}
<span class="where">${s.pickup.pickup_address} · ${p('plan.window', { start: s.pickup.window.start, end: s.pickup.window.end })}${arrival}</span></span>`;
  const o = s.order;
  return html`<span class="pos">${s.position}</span><span class="what"><strong>${o.tracking_ref}</strong>${pin}
<span class="where">${[o.postcode, o.city].filter(Boolean).join(' ') || (o.address ?? '—')}${arrival}</span></span>`;
}

function roundCard(ctx: ConsoleContext, view: PlanningView, r: RoundJson): SafeHtml {
  const p = planningTranslate(ctx.locale);
  const courier = view.couriers.find((c) => c.id === r.courier_id);
  const vehicle = view.vehicles.find((v) => v.id === r.vehicle_id);
  const facts = [
    p('plan.stops', { count: String(r.stops.length) }),
    // The optimiser's figures: they stay as planned until the day is optimised again.
    r.planned_distance_m !== null
      ? p('plan.plannedRoad', {
          distance: kilometres(ctx, r.planned_distance_m),
          time: hoursMinutes(r.planned_duration_s ?? 0),
        })
      : null,
  ].filter((f): f is string => f !== null);
  const head = `h-${r.id}`;
  const others = view.rounds.filter((o) => o.id !== r.id);
  const hidden = html`${csrfField(ctx)}<input type="hidden" name="date" value="${view.date}"><input type="hidden" name="version" value="${r.version}">`;
  const courierOptions = view.couriers.filter((c) => !c.disabledAt || c.id === r.courier_id);
  const vehicleOptions = view.vehicles.filter((v) => !v.disabled_at || v.id === r.vehicle_id);
  const list = html`<ol class="stop-list" data-round="${r.id}">
${r.stops.map(
  (s) =>
    html`<li class="stop${s.pinned ? ' pinned' : ''}"${view.canWrite ? html` draggable="true"` : ''} data-stop="${stopValue(s)}">${
      view.canWrite
        ? html`<label class="pick"><input type="radio" name="stop" value="${stopValue(s)}"> ${stopLine(ctx, p, s)}</label>`
        : html`<div class="pick">${stopLine(ctx, p, s)}</div>`
    }</li>`,
)}
</ol>${r.stops.length === 0 ? html`<p class="hint empty">${p('plan.noStops')}</p>` : ''}`;
  return html`<section class="round" id="round-${r.id}" data-round="${r.id}" data-version="${r.version}" aria-labelledby="${head}">
<div class="round-head"><h2 id="${head}">${r.name}</h2>
<p class="round-facts">${[...facts, p('plan.version', { version: String(r.version) })].join(' · ')}</p>
${
  view.canWrite
    ? html`<form method="post" action="${PLANNING_PATH}/rounds/${r.id}/assign" class="assign">${hidden}
<div><label for="courier-${r.id}">${p('plan.courier')}</label><select id="courier-${r.id}" name="courier">
<option value="">${p('plan.none')}</option>
${courierOptions.map((c) => html`<option value="${c.id}"${c.id === r.courier_id ? html` selected` : ''}>${c.name}</option>`)}
</select></div>
<div><label for="vehicle-${r.id}">${p('plan.vehicle')}</label><select id="vehicle-${r.id}" name="vehicle">
<option value="">${p('plan.none')}</option>
${vehicleOptions.map((v) => html`<option value="${v.id}"${v.id === r.vehicle_id ? html` selected` : ''}>${v.name}</option>`)}
</select></div>
<button type="submit" class="small secondary">${p('plan.assign')}</button></form>`
    : html`<p class="round-facts">${p('plan.courier')}: ${courier?.name ?? '—'} · ${p('plan.vehicle')}: ${vehicle?.name ?? '—'}</p>`
}</div>
${
  view.canWrite
    ? html`<form method="post" action="${PLANNING_PATH}/rounds/${r.id}/stops" class="stops">${hidden}
<fieldset><legend class="visually-hidden">${p('plan.stopsOf', { name: r.name })}</legend>${list}</fieldset>
${
  r.stops.length > 0
    ? html`<div class="stop-actions" role="group" aria-label="${p('plan.selected')}">
<label for="to-${r.id}">${p('plan.moveTo')}</label><select id="to-${r.id}" name="to" class="move-to">
<option value="">${p('plan.none')}</option>
${others.map((o) => {
  const name = view.couriers.find((c) => c.id === o.courier_id)?.name;
  return html`<option value="${targetValue(o)}" data-round="${o.id}">${name ? `${o.name} — ${name}` : o.name}</option>`;
})}
<option value="${targetValue(r)}" data-round="${r.id}">${p('plan.thisRound')}</option>
</select>
<label for="position-${r.id}">${p('plan.position')}</label><input id="position-${r.id}" name="position" type="number" min="1" max="${r.stops.length + 1}" inputmode="numeric" class="position" aria-describedby="position-hint-${r.id}">
<span id="position-hint-${r.id}" class="visually-hidden">${p('plan.positionHint')}</span>
<button type="submit" name="op" value="move" class="small">${p('plan.move')}</button>
<button type="submit" name="op" value="pin" class="small secondary">${p('plan.pin')}</button>
<button type="submit" name="op" value="unpin" class="small secondary">${p('plan.unpin')}</button>
</div>`
    : ''
}</form>`
    : list
}
</section>`;
}

/** The Planning page: the day's toolbar, its rounds side by side, the stops on no round. */
export function planningPage(ctx: ConsoleContext, view: PlanningView): string {
  const p = planningTranslate(ctx.locale);
  const stops = view.rounds.reduce((n, r) => n + r.stops.length, 0);
  const distance = view.rounds.reduce((n, r) => n + (r.planned_distance_m ?? 0), 0);
  return layout(
    ctx,
    `${p('plan.title')} — ${view.date}`,
    html`${view.note}<div class="plan-bar">
<form method="get" action="${PLANNING_PATH}" class="filters">
<div><label for="date">${p('plan.date')}</label><input id="date" name="date" type="date" value="${view.date}" required></div>
<div class="actions"><button type="submit" class="secondary">${p('plan.show')}</button></div></form>
${
  view.canWrite
    ? html`<form method="post" action="${PLANNING_PATH}/plan" class="plan-run">${csrfField(ctx)}<input type="hidden" name="date" value="${view.date}">
<button type="submit" name="mode" value="optimise">${p('plan.optimise')}</button>
<button type="submit" name="mode" value="sort_codes" class="secondary">${p('plan.bySortCode')}</button></form>`
    : ''
}</div>
<p class="plan-summary">${p('plan.summary', {
      rounds: String(view.rounds.length),
      stops: String(stops),
      distance: kilometres(ctx, distance),
      unplaced: String(view.unplaced.length),
    })}</p>
${view.canWrite ? html`<p class="hint">${p('plan.planHint')} ${p('plan.dragHint')}</p>` : html`<p class="hint">${p('plan.readOnly')}</p>`}
${
  view.rounds.length === 0
    ? html`<p class="notice">${p('plan.noRounds')}</p>`
    : html`<div class="rounds" id="rounds">${view.rounds.map((r) => roundCard(ctx, view, r))}</div>`
}
<section class="panel unplaced" aria-labelledby="h-unplaced"><h2 id="h-unplaced">${p('plan.unplaced')} <span class="count">${view.unplaced.length}</span></h2>
${
  view.unplaced.length === 0
    ? html`<p>${p('plan.unplacedNone')}</p>`
    : html`<table class="list"><thead><tr><th scope="col">${p('plan.col.stop')}</th><th scope="col">${p('plan.col.where')}</th><th scope="col">${p('plan.col.reason')}</th></tr></thead><tbody>
${view.unplaced.map(
  (u) =>
    html`<tr><th scope="row">${
      u.kind === 'delivery'
        ? html`<a href="${CONSOLE_PATH}/orders/${u.label}">${u.label}</a>`
        : html`${p('plan.kind.pickup')} <code>${u.label}</code>`
    }</th><td>${u.where ?? '—'}</td><td class="reason" data-reason="${u.reason}">${p(`plan.reason.${u.reason}`)}</td></tr>`,
)}</tbody></table>`
}</section>`,
    { wide: true, scripts: view.canWrite ? ['planning.js'] : [] },
  );
}
