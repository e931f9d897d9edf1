import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Operator } from '../../domain/operators/operator.ts';
import { OPERATOR_ROLES, TOKEN_SCOPES } from '../../domain/operators/scopes.ts';
import { isAppError } from '../../errors.ts';
import { list, text } from '../account/form.ts';
import { html, type SafeHtml } from '../shared/html.ts';
import { actedBy, requireOperator } from '../shared/operator-requirements.ts';
import { needs, sendPage } from './context.ts';
import type { ConsoleRouteDeps } from './route-deps.ts';
import {
  CONSOLE_PATH,
  type ConsoleContext,
  csrfField,
  errorNote,
  layout,
  successNote,
  when,
} from './views/layout.ts';

const by = (request: FastifyRequest) => actedBy(requireOperator(request, 'operators:write'));
const idParam = (request: FastifyRequest) => (request.params as { id: string }).id;

function peoplePage(ctx: ConsoleContext, operators: Operator[], note: SafeHtml | string = '') {
  const { t } = ctx;
  const roleOptions = (current: string) =>
    OPERATOR_ROLES.map(
      (r) => html`<option value="${r}"${r === current ? html` selected` : ''}>${t(`role.${r}`)}</option>`,
    );
  return layout(
    ctx,
    t('people.title'),
    html`${note}
<table class="list"><caption class="visually-hidden">${t('people.title')}</caption>
<thead><tr><th scope="col">${t('col.name')}</th><th scope="col">${t('col.email')}</th><th scope="col">${t('col.role')}</th><th scope="col">${t('col.secondFactor')}</th><th scope="col">${t('col.actions')}</th></tr></thead>
<tbody>${operators.map(
      (
        o,
      ) => html`<tr${o.disabledAt ? html` class="disabled"` : ''}><th scope="row">${o.name}</th><td>${o.email}</td>
<td>${
        o.disabledAt
          ? html`${t(`role.${o.role}`)} · ${t('people.disabled')}`
          : html`<form method="post" action="${CONSOLE_PATH}/people/${o.id}/role" class="inline">${csrfField(ctx)}
<label class="visually-hidden" for="role-${o.id}">${t('col.role')} — ${o.email}</label>
<select id="role-${o.id}" name="role">${roleOptions(o.role)}</select> <button type="submit" class="small">${t('people.setRole')}</button></form>`
      }</td>
<td>${o.secondFactorEnrolledAt ? t('people.enrolled') : t('people.notEnrolled')}</td>
<td>${
        o.disabledAt
          ? ''
          : html`<form method="post" action="${CONSOLE_PATH}/people/${o.id}/reset-second-factor" class="inline">${csrfField(ctx)}<button type="submit" class="small secondary">${t('people.resetFactor')}</button></form>
<form method="post" action="${CONSOLE_PATH}/people/${o.id}/disable" class="inline">${csrfField(ctx)}<button type="submit" class="small danger">${t('people.disable')}</button></form>`
      }</td></tr>`,
    )}</tbody></table>
<section class="card" aria-labelledby="h-add"><h2 id="h-add">${t('people.add')}</h2>
<form method="post" action="${CONSOLE_PATH}/people">${csrfField(ctx)}
<label for="name">${t('col.name')}</label><input id="name" name="name" required maxlength="100">
<label for="email">${t('col.email')}</label><input id="email" name="email" type="email" required maxlength="254">
<label for="role">${t('col.role')}</label><select id="role" name="role">${roleOptions('dispatcher')}</select>
<button type="submit">${t('people.add')}</button></form></section>`,
  );
}

const oneTime = (message: string, password: string) =>
  html`${successNote(message)}<p class="secret"><code id="one-time-password">${password}</code></p>`;

function tokensPage(
  ctx: ConsoleContext,
  tokens: Awaited<ReturnType<ConsoleRouteDeps['opsTokens']['list']>>,
  note: SafeHtml | string = '',
) {
  const { t } = ctx;
  return layout(
    ctx,
    t('tokens.title'),
    html`${note}
<table class="list"><caption class="visually-hidden">${t('tokens.title')}</caption>
<thead><tr><th scope="col">${t('col.name')}</th><th scope="col">${t('col.prefix')}</th><th scope="col">${t('col.scopes')}</th><th scope="col">${t('col.lastUsed')}</th><th scope="col">${t('col.actions')}</th></tr></thead>
<tbody>${tokens.map(
      (
        k,
      ) => html`<tr${k.revokedAt ? html` class="disabled"` : ''}><th scope="row">${k.name}</th><td><code>${k.prefix}</code></td><td>${k.scopes.join(', ')}</td><td>${when(ctx, k.lastUsedAt)}</td>
<td>${k.revokedAt ? t('tokens.revoked') : html`<form method="post" action="${CONSOLE_PATH}/tokens/${k.id}/revoke" class="inline">${csrfField(ctx)}<button type="submit" class="small danger">${t('tokens.revoke')}</button></form>`}</td></tr>`,
    )}</tbody></table>
<section class="card" aria-labelledby="h-create"><h2 id="h-create">${t('tokens.create')}</h2>
<form method="post" action="${CONSOLE_PATH}/tokens">${csrfField(ctx)}
<label for="name">${t('col.name')}</label><input id="name" name="name" required maxlength="100">
<fieldset><legend>${t('col.scopes')}</legend><div class="checks">${TOKEN_SCOPES.map(
      (s) => html`<label class="check"><input type="checkbox" name="scopes" value="${s}"> ${s}</label>`,
    )}</div></fieldset>
<label for="expires">${t('tokens.expires')}</label><input id="expires" name="expires_at" type="date">
<button type="submit">${t('tokens.create')}</button></form></section>`,
  );
}

/** People (operators: add, role, disable, reset the second factor) and machine tokens: admins only. */
export function peopleRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): void {
  const { operators, opsTokens, context } = deps;
  const show = async (
    request: FastifyRequest,
    reply: Parameters<typeof sendPage>[0],
    note: SafeHtml | string,
    status = 200,
  ) => sendPage(reply, peoplePage(await context(request, reply), await operators.list(), note), status);
  const failed = async (request: FastifyRequest, reply: Parameters<typeof sendPage>[0], err: unknown) => {
    if (!isAppError(err) || err.status >= 500 || err.code === 'insufficient_scope') throw err;
    return show(request, reply, errorNote(err.message), err.status);
  };

  app.get('/people', needs('operators:read'), async (request, reply) => show(request, reply, ''));

  app.post('/people', needs('operators:write'), async (request, reply) => {
    try {
      const { operator, oneTimePassword } = await operators.add(
        {
          email: text(request, 'email', 254),
          name: text(request, 'name', 100),
          role: text(request, 'role', 20),
        },
        by(request),
      );
      const ctx = await context(request, reply);
      return show(
        request,
        reply,
        oneTime(ctx.t('people.added', { email: operator.email }), oneTimePassword),
        201,
      );
    } catch (err) {
      return failed(request, reply, err);
    }
  });

  app.post('/people/:id/role', needs('operators:write'), async (request, reply) => {
    try {
      const changed = await operators.setRole(idParam(request), text(request, 'role', 20), by(request));
      const ctx = await context(request, reply);
      return show(
        request,
        reply,
        successNote(
          ctx.t('people.roleChanged', { email: changed.email, role: ctx.t(`role.${changed.role}`) }),
        ),
      );
    } catch (err) {
      return failed(request, reply, err);
    }
  });

  app.post('/people/:id/disable', needs('operators:write'), async (request, reply) => {
    try {
      const changed = await operators.disable(idParam(request), by(request));
      const ctx = await context(request, reply);
      return show(request, reply, successNote(ctx.t('people.wasDisabled', { email: changed.email })));
    } catch (err) {
      return failed(request, reply, err);
    }
  });

  app.post('/people/:id/reset-second-factor', needs('operators:write'), async (request, reply) => {
    try {
      const { operator, oneTimePassword } = await operators.resetSecondFactor(idParam(request), by(request));
      const ctx = await context(request, reply);
      return show(request, reply, oneTime(ctx.t('people.reset', { email: operator.email }), oneTimePassword));
    } catch (err) {
      return failed(request, reply, err);
    }
  });

  const showTokens = async (
    request: FastifyRequest,
    reply: Parameters<typeof sendPage>[0],
    note: SafeHtml | string,
    status = 200,
  ) => sendPage(reply, tokensPage(await context(request, reply), await opsTokens.list(), note), status);

  app.get('/tokens', needs('operators:read'), async (request, reply) => showTokens(request, reply, ''));

  app.post('/tokens', needs('operators:write'), async (request, reply) => {
    try {
      const expires = text(request, 'expires_at', 10);
      const created = await opsTokens.create(
        {
          name: text(request, 'name', 100),
          scopes: list(request, 'scopes', 40),
          expiresAt: expires ? new Date(`${expires}T23:59:59Z`) : null,
        },
        by(request),
      );
      const ctx = await context(request, reply);
      return showTokens(
        request,
        reply,
        oneTime(ctx.t('tokens.created', { name: created.name }), created.token),
        201,
      );
    } catch (err) {
      if (!isAppError(err) || err.status >= 500 || err.code === 'insufficient_scope') throw err;
      return showTokens(request, reply, errorNote(err.message), err.status);
    }
  });

  app.post('/tokens/:id/revoke', needs('operators:write'), async (request, reply) => {
    await opsTokens.revoke(idParam(request), by(request));
    return reply.redirect(`${CONSOLE_PATH}/tokens`, 303);
  });
}
