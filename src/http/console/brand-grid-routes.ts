import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findGridHoles, type GridHole } from '../../domain/pricing/grid-holes.ts';
import { isAppError } from '../../errors.ts';
import { query, text } from '../account/form.ts';
import { authorOf } from '../shared/author.ts';
import { html, type SafeHtml } from '../shared/html.ts';
import { needs, sendPage } from './context.ts';
import type { ConsoleRouteDeps } from './route-deps.ts';
import {
  CONSOLE_PATH,
  type ConsoleContext,
  csrfField,
  errorNote,
  layout,
  may,
  successNote,
  when,
} from './views/layout.ts';

/** A grid as text: far below what a grid of every service, zone, unit and weight band takes. */
export const GRID_FORM_LIMIT = 1024 * 1024;
const GRID_TEXT_MAX = 900 * 1024;
/** Holes listed one by one up to this many; the rest counted. */
const HOLES_SHOWN = 200;

const brandIdOf = (request: FastifyRequest) => (request.params as { id: string }).id;
const formatOf = (request: FastifyRequest): 'csv' | 'json' =>
  text(request, 'format', 4) === 'json' ? 'json' : 'csv';

function holesTable(ctx: ConsoleContext, holes: readonly GridHole[]): SafeHtml {
  const { t } = ctx;
  if (holes.length === 0) return successNote(t('grid.noHoles'));
  return html`<p class="warning" role="alert">${t('grid.holes', { count: String(holes.length) })}</p>
<table class="list"><caption class="visually-hidden">${t('grid.holesCaption')}</caption><thead><tr><th scope="col">${t('grid.service')}</th><th scope="col">${t('grid.zone')}</th><th scope="col">${t('grid.unit')}</th><th scope="col" class="num">${t('grid.weight')}</th></tr></thead>
<tbody>${holes.slice(0, HOLES_SHOWN).map((h) => html`<tr><th scope="row">${h.service}</th><td>${h.zone}</td><td>${h.unitType}</td><td class="num">${h.maxWeightGrams / 1000} kg</td></tr>`)}</tbody></table>
${holes.length > HOLES_SHOWN ? html`<p>${t('grid.moreHoles', { count: String(holes.length - HOLES_SHOWN) })}</p>` : ''}`;
}

/**
 * A brand's price grid in the console: the grid in use and its holes; an import in two steps, the
 * file checked whole and its holes shown before anything is saved (`GridService.previewGrid`), then
 * saved on confirmation through the import `dlv grids import` and the operations API use (audited
 * `grid.imported`). Registered with a larger form limit than the console's other pages (index.ts).
 */
export function brandGridRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): void {
  const page = async (ctx: ConsoleContext, brandId: string, body: SafeHtml) => {
    const { t } = ctx;
    const brand = await deps.brands.get(brandId);
    const grid = await deps.grids.gridFor(brand.id);
    return layout(
      ctx,
      t('grid.title', { brand: brand.name }),
      html`<p><a href="${CONSOLE_PATH}/brands/${brand.id}">${t('webhooks.back', { brand: brand.name })}</a></p>
<dl class="facts"><dt>${t('grid.source')}</dt><dd>${t(`grid.source.${grid.source}`)}</dd><dt>${t('grid.rows')}</dt><dd>${grid.rows.length}</dd><dt>${t('col.when')}</dt><dd>${when(ctx, grid.importedAt)}</dd></dl>
${body}`,
      { wide: true },
    );
  };

  const importForm = (ctx: ConsoleContext, brandId: string, previous = '', format: 'csv' | 'json' = 'csv') =>
    may(ctx, 'grids:write')
      ? html`<section class="card" aria-labelledby="h-import"><h2 id="h-import">${ctx.t('grid.import')}</h2>
<form method="post" action="${CONSOLE_PATH}/brands/${brandId}/grid/preview">${csrfField(ctx)}
<label for="grid">${ctx.t('grid.file')}</label><textarea id="grid" name="grid" rows="12" required aria-describedby="grid-hint">${previous}</textarea>
<p class="hint" id="grid-hint">${ctx.t('grid.hint')}</p>
<label for="format">${ctx.t('grid.format')}</label><select id="format" name="format"><option value="csv"${format === 'csv' ? html` selected` : ''}>CSV</option><option value="json"${format === 'json' ? html` selected` : ''}>JSON</option></select>
<button type="submit">${ctx.t('grid.preview')}</button></form></section>`
      : html``;

  app.get('/brands/:id/grid', needs('grids:read'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    const brandId = brandIdOf(request);
    const grid = await deps.brands.get(brandId).then((b) => deps.grids.gridFor(b.id));
    const note = query(request, 'done', 10) === 'imported' ? successNote(ctx.t('grid.imported')) : '';
    return sendPage(
      reply,
      await page(
        ctx,
        brandId,
        html`${note}${holesTable(ctx, findGridHoles(grid.index))}${importForm(ctx, brandId)}`,
      ),
    );
  });

  /** A file the checks refuse: said on the page, the text kept in the form to correct it. */
  const refused = async (request: FastifyRequest, reply: FastifyReply, err: unknown, grid: string) => {
    if (!isAppError(err) || err.status >= 500 || err.code === 'not_found') throw err;
    const ctx = await deps.context(request, reply);
    const brandId = brandIdOf(request);
    return sendPage(
      reply,
      await page(
        ctx,
        brandId,
        html`${errorNote(err.message)}${importForm(ctx, brandId, grid, formatOf(request))}`,
      ),
      err.status,
    );
  };

  // Step 1: checked and its holes shown; nothing saved. The confirmation carries the same text.
  app.post('/brands/:id/grid/preview', needs('grids:write'), async (request, reply) => {
    const grid = text(request, 'grid', GRID_TEXT_MAX);
    const format = formatOf(request);
    try {
      await deps.brands.get(brandIdOf(request));
      const preview = deps.grids.previewGrid(grid, format);
      const ctx = await deps.context(request, reply);
      const { t } = ctx;
      const brandId = brandIdOf(request);
      return sendPage(
        reply,
        await page(
          ctx,
          brandId,
          html`<section aria-labelledby="h-preview"><h2 id="h-preview">${t('grid.previewTitle', { rows: String(preview.rowCount) })}</h2>
${holesTable(ctx, preview.holes)}
<form method="post" action="${CONSOLE_PATH}/brands/${brandId}/grid" class="inline">${csrfField(ctx)}<input type="hidden" name="grid" value="${grid}"><input type="hidden" name="format" value="${format}"><button type="submit">${t('grid.confirm')}</button></form>
<a href="${CONSOLE_PATH}/brands/${brandId}/grid">${t('grid.cancel')}</a></section>`,
        ),
      );
    } catch (err) {
      return refused(request, reply, err, grid);
    }
  });

  // Step 2: saved (checked again: the text came back through the browser).
  app.post('/brands/:id/grid', needs('grids:write'), async (request, reply) => {
    const grid = text(request, 'grid', GRID_TEXT_MAX);
    try {
      const brandId = brandIdOf(request);
      await deps.grids.importGrid({ brandId }, grid, formatOf(request), 'console', authorOf(request));
      return reply.redirect(`${CONSOLE_PATH}/brands/${brandId}/grid?done=imported`, 303);
    } catch (err) {
      return refused(request, reply, err, grid);
    }
  });
}
