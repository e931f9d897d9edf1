import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditCsv } from '../../domain/audit/audit-export.ts';
import type { AuditQuery } from '../../domain/audit/audit-log.ts';
import type { AuditRecord } from '../../domain/audit/ports.ts';
import { isAppError } from '../../errors.ts';
import { query } from '../account/form.ts';
import { html } from '../shared/html.ts';
import { needs, sendPage } from './context.ts';
import type { ConsoleRouteDeps } from './route-deps.ts';
import { CONSOLE_PATH, type ConsoleContext, errorNote, layout, when } from './views/layout.ts';

const FILTERS = ['actor', 'order', 'since', 'action'] as const;

/** The page's filters as the audit log takes them (an empty field is no filter). */
function filtersOf(request: FastifyRequest): AuditQuery {
  const out: AuditQuery = {};
  for (const name of FILTERS) {
    const value = query(request, name, 200).trim();
    if (value !== '') out[name] = value;
  }
  return out;
}

const searchOf = (filters: AuditQuery, extra: Record<string, string> = {}) =>
  new URLSearchParams({ ...(filters as Record<string, string>), ...extra }).toString();

/** `field: before → after` per changed field (a person's data only as "changed"), then the details. */
function changesText(record: AuditRecord): string {
  const show = (v: unknown) =>
    v === null || v === undefined ? '∅' : typeof v === 'string' ? v : JSON.stringify(v);
  const changes = Object.entries(record.changes ?? {}).map(([field, change]) =>
    change !== null && typeof change === 'object' && 'after' in change
      ? `${field}: ${show((change as { before?: unknown }).before)} → ${show((change as { after?: unknown }).after)}`
      : `${field}: ${show(change)}`,
  );
  const details = Object.entries(record.details ?? {}).map(([k, v]) => `${k}=${show(v)}`);
  return [...changes, ...details].join('; ');
}

function auditPage(
  ctx: ConsoleContext,
  filters: AuditQuery,
  page: { events: AuditRecord[]; nextCursor: string | null } | null,
  error?: string,
) {
  const { t } = ctx;
  const field = (name: (typeof FILTERS)[number], label: string) =>
    html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" value="${filters[name] ?? ''}"></div>`;
  return layout(
    ctx,
    t('audit.title'),
    html`<form method="get" action="${CONSOLE_PATH}/audit" class="filters">
${field('actor', t('audit.actor'))}${field('order', t('audit.order'))}${field('since', t('audit.since'))}${field('action', t('col.action'))}
<div class="actions"><button type="submit">${t('audit.filter')}</button>
<a class="button secondary" href="${CONSOLE_PATH}/audit.csv?${searchOf(filters)}" download>${t('audit.csv')}</a></div>
</form>
${error ? errorNote(error) : ''}
${
  !page
    ? ''
    : page.events.length === 0
      ? html`<p>${t('audit.none')}</p>`
      : html`<table class="list audit"><caption class="visually-hidden">${t('audit.title')}</caption>
<thead><tr><th scope="col">${t('col.when')}</th><th scope="col">${t('col.actor')}</th><th scope="col">${t('col.action')}</th><th scope="col">${t('col.subject')}</th><th scope="col">${t('col.order')}</th><th scope="col">${t('col.detail')}</th></tr></thead>
<tbody>${page.events.map(
          (
            e,
          ) => html`<tr><td>${when(ctx, e.at)}</td><td><span class="kind">${e.actor.kind}</span> ${e.actor.label}</td><td><code>${e.action}</code></td>
<td>${e.object.type} <code>${e.object.id}</code></td><td>${e.orderRefs.map((r) => html`<a href="${CONSOLE_PATH}/orders/${r}">${r}</a> `)}</td><td class="detail">${changesText(e)}</td></tr>`,
        )}</tbody></table>
${page.nextCursor ? html`<p><a href="${CONSOLE_PATH}/audit?${searchOf(filters, { cursor: page.nextCursor })}">${t('audit.more')}</a></p>` : ''}`
}`,
    { wide: true },
  );
}

/** The audit trail with its filters, and its CSV export (the operations API's own formatter). */
export function auditRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): void {
  app.get('/audit', needs('audit:read'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    const filters = filtersOf(request);
    try {
      const cursor = query(request, 'cursor', 400);
      const page = await deps.audit.list({ ...filters, limit: 100, ...(cursor ? { cursor } : {}) });
      return sendPage(reply, auditPage(ctx, filters, page));
    } catch (err) {
      if (!isAppError(err) || err.code !== 'invalid_request') throw err;
      return sendPage(reply, auditPage(ctx, filters, null, err.message), 400);
    }
  });

  app.get('/audit.csv', needs('audit:read'), async (request, reply) => {
    const rows = await deps.audit.export(filtersOf(request));
    const stamp = deps.clock().toISOString().replace(/[:.]/g, '-');
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-${stamp}.csv"`)
      .send(Readable.from(auditCsv(rows)));
  });
}
