import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isAppError } from '../../errors.ts';
import { text } from '../account/form.ts';
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

const params = (request: FastifyRequest) => request.params as { id: string; keyId: string };

/** Brands: the list, a new brand, a brand's pickup address and keys (listed and revoked, never a secret). */
export function brandRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): void {
  const listPage = async (ctx: ConsoleContext, note: SafeHtml | string = '') => {
    const { t } = ctx;
    const brands = await deps.brands.list();
    return layout(
      ctx,
      t('brands.title'),
      html`${note}<table class="list"><caption class="visually-hidden">${t('brands.title')}</caption>
<thead><tr><th scope="col">${t('col.name')}</th><th scope="col">${t('brands.addresses')}</th><th scope="col">${t('col.when')}</th></tr></thead>
<tbody>${brands.map(
        (b) =>
          html`<tr${b.disabledAt ? html` class="disabled"` : ''}><th scope="row"><a href="${CONSOLE_PATH}/brands/${b.id}">${b.name}</a></th><td>${b.defaultPickupAddress ?? '—'}</td><td>${when(ctx, b.createdAt)}</td></tr>`,
      )}</tbody></table>
${
  may(ctx, 'brands:write')
    ? html`<section class="card" aria-labelledby="h-create"><h2 id="h-create">${t('brands.create')}</h2>
<form method="post" action="${CONSOLE_PATH}/brands">${csrfField(ctx)}
<label for="name">${t('col.name')}</label><input id="name" name="name" required maxlength="200">
<label for="pickup_address">${t('brands.pickupAddress')}</label><input id="pickup_address" name="pickup_address" maxlength="500">
<button type="submit">${t('brands.create')}</button></form></section>`
    : ''
}`,
    );
  };

  app.get('/brands', needs('brands:read'), async (request, reply) =>
    sendPage(reply, await listPage(await deps.context(request, reply))),
  );

  app.post('/brands', needs('brands:write'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    try {
      const address = text(request, 'pickup_address', 500).trim();
      const brand = await deps.brands.create(
        { name: text(request, 'name', 200), pickupAddress: address === '' ? null : address },
        authorOf(request),
      );
      return sendPage(
        reply,
        await listPage(ctx, successNote(ctx.t('brands.created', { name: brand.name }))),
        201,
      );
    } catch (err) {
      if (!isAppError(err) || err.status >= 500) throw err;
      return sendPage(reply, await listPage(ctx, errorNote(err.message)), err.status);
    }
  });

  app.get('/brands/:id', needs('brands:read'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    const { t } = ctx;
    const brand = await deps.brands.get(params(request).id);
    const keys = await deps.apiKeys.list(brand.id);
    const revoked = (request.query as Record<string, unknown>).revoked === '1';
    return sendPage(
      reply,
      layout(
        ctx,
        brand.name,
        html`${revoked ? successNote(t('brands.keyRevoked')) : ''}<dl class="facts">
<dt>Id</dt><dd><code>${brand.id}</code></dd>
<dt>${t('brands.addresses')}</dt><dd>${brand.defaultPickupAddress ?? '—'}</dd>
<dt>${t('col.name')}</dt><dd>${brand.legalName ?? '—'} ${brand.siren ? html`(SIREN ${brand.siren})` : ''}</dd>
</dl>
<p class="links">${may(ctx, 'grids:read') ? html`<a href="${CONSOLE_PATH}/brands/${brand.id}/grid">${t('brands.grid')}</a> ` : ''}${may(ctx, 'webhooks:read') ? html`<a href="${CONSOLE_PATH}/brands/${brand.id}/webhooks">${t('brands.webhooks')}</a>` : ''}</p>
<h2>${t('brands.keys')}</h2>
${
  keys.length === 0
    ? html`<p>${t('brands.noKeys')}</p>`
    : html`<table class="list"><thead><tr><th scope="col">${t('col.prefix')}</th><th scope="col">${t('col.name')}</th><th scope="col">${t('col.scopes')}</th><th scope="col">${t('col.lastUsed')}</th><th scope="col">${t('col.actions')}</th></tr></thead>
<tbody>${keys.map(
        (
          k,
        ) => html`<tr${k.revokedAt ? html` class="disabled"` : ''}><th scope="row"><code>${k.prefix}…</code></th><td>${k.name ?? '—'}</td><td>${k.scopes.join(', ')}</td><td>${when(ctx, k.lastUsedAt)}</td>
<td>${k.revokedAt ? t('tokens.revoked') : may(ctx, 'brands:write') ? html`<form method="post" action="${CONSOLE_PATH}/brands/${brand.id}/keys/${k.id}/revoke" class="inline">${csrfField(ctx)}<button type="submit" class="small danger">${t('brands.revoke')}</button></form>` : ''}</td></tr>`,
      )}</tbody></table>`
}`,
      ),
    );
  });

  app.post('/brands/:id/keys/:keyId/revoke', needs('brands:write'), async (request, reply) => {
    const { id, keyId } = params(request);
    const keys = await deps.apiKeys.list(id);
    if (!keys.some((k) => k.id === keyId)) return reply.callNotFound();
    await deps.apiKeys.revoke(keyId, authorOf(request));
    return reply.redirect(`${CONSOLE_PATH}/brands/${id}?revoked=1`, 303);
  });
}
