import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createBrandWithKey } from './support/app.ts';
import { decodeBarcodes } from './support/barcodes.ts';
import {
  bearer,
  codeFor,
  enrolledOperator,
  OPERATOR_PASSWORD,
  operatorEmail,
  TEST_ACTOR,
} from './support/operators.ts';
import { runDlv } from './support/run-cli.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';

/**
 * Named operators (issue 38): accounts with roles, a password and TOTP, sessions of the operations
 * API. On a scratch database: the last-admin rule and issuing a month are about every operator and brand.
 */
let t: ScratchTestApp;
// The app's clock: moved by 30 s (one TOTP step) where a test needs a new code.
let now = new Date();
const later = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
  return now;
};

beforeAll(async () => {
  t = await buildScratchTestApp({ clock: () => now });
});
afterAll(() => t.close());

let ip = 0;
const from = () => `10.61.${Math.floor(++ip / 250)}.${ip % 250}`;

const signIn = (email: string, password: string, code?: string | null, remoteAddress = from()) =>
  call(t.app, { method: 'POST', url: '/ops/v1/sessions', remoteAddress, payload: { email, password, code } });

describe("an operator's first sign-in", () => {
  it('goes through choosing a password and enrolling TOTP before anything else, then signs in with password and code', async () => {
    const email = operatorEmail('first');
    const { oneTimePassword } = await t.deps.operators.add(
      { email, name: 'Ana Admin', role: 'admin' },
      TEST_ACTOR,
    );
    const first = await signIn(email, oneTimePassword);
    expect(first.statusCode).toBe(201);
    expect(first.data.session).toMatchObject({
      token: expect.stringMatching(/^dlv_sess_[A-Za-z0-9_-]{43}$/),
      idle_timeout_seconds: 1800,
      setup: { choose_password: true, enrol_second_factor: true },
    });
    const setup = bearer(first.data.session.token);
    // A setup session does nothing else, whatever its role grants.
    const rounds = await call(t.app, {
      method: 'GET',
      url: '/ops/v1/rounds?date=2026-03-02',
      headers: setup,
    });
    expect(rounds.statusCode).toBe(403);
    expect(rounds.data.error).toBe('setup_required');
    // The one-time password opens one sign-in only.
    expect((await signIn(email, oneTimePassword)).statusCode).toBe(401);

    const refused = await call(t.app, {
      method: 'PUT',
      url: '/ops/v1/me/password',
      headers: setup,
      payload: { password: 'short' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.data.details[0].field).toBe('password');
    const chosen = await call(t.app, {
      method: 'PUT',
      url: '/ops/v1/me/password',
      headers: setup,
      payload: { password: OPERATOR_PASSWORD },
    });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.data.session.setup).toEqual({ choose_password: false, enrol_second_factor: true });
    // The session it replaces ends with the password it was opened with.
    expect((await call(t.app, { method: 'GET', url: '/ops/v1/me', headers: setup })).statusCode).toBe(401);
    const enrolling = bearer(chosen.data.session.token);

    const begun = await call(t.app, { method: 'POST', url: '/ops/v1/me/second-factor', headers: enrolling });
    expect(begun.statusCode).toBe(200);
    expect(begun.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(begun.data.otpauth_uri).toBe(
      `otpauth://totp/Livraison%20DLV:${encodeURIComponent(email)}?secret=${begun.data.secret}&issuer=Livraison%20DLV&algorithm=SHA1&digits=6&period=30`,
    );
    // The QR code, drawn here, carries exactly that URI (read back as a phone camera would).
    expect(begun.data.qr_svg).toMatch(/^<svg /);
    const png = await sharp(Buffer.from(begun.data.qr_svg)).png().toBuffer();
    expect(await decodeBarcodes(png)).toEqual([{ format: 'QRCode', text: begun.data.otpauth_uri }]);

    const wrongCode = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/me/second-factor/confirm',
      headers: enrolling,
      payload: { code: codeFor(begun.data.secret, new Date(now.getTime() + 120_000)) },
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.data.details[0].field).toBe('code');
    const enrolCode = codeFor(begun.data.secret, now);
    const confirmed = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/me/second-factor/confirm',
      headers: enrolling,
      payload: { code: enrolCode },
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.data.recovery_codes).toHaveLength(10);
    expect(new Set(confirmed.data.recovery_codes).size).toBe(10);
    expect(confirmed.data.session.setup).toBeNull();
    expect(confirmed.data.operator.second_factor_enrolled_at).not.toBeNull();
    const signedIn = bearer(confirmed.data.session.token);
    const me = await call(t.app, { method: 'GET', url: '/ops/v1/me', headers: signedIn });
    expect(me.data).toMatchObject({
      credential: 'session',
      operator: { email, role: 'admin' },
      session: { setup: null, recovery_codes_left: 10 },
    });
    expect(me.data.scopes).toContain('invoices:write');

    // Signing in now takes the password and a code: the one used to enrol is spent, a wrong one or none refused.
    expect((await signIn(email, OPERATOR_PASSWORD, enrolCode)).statusCode).toBe(401);
    expect((await signIn(email, OPERATOR_PASSWORD)).statusCode).toBe(401);
    expect((await signIn(email, OPERATOR_PASSWORD, '000000')).statusCode).toBe(401);
    later(30);
    const code = codeFor(begun.data.secret, now);
    expect((await signIn(email, 'not the password at all', code)).statusCode).toBe(401);
    const again = await signIn(email, OPERATOR_PASSWORD, code);
    expect(again.statusCode).toBe(201);
    expect(again.data.session.setup).toBeNull();
    // The same code a second time (a replay, or a second sign-in within the step): refused.
    const replay = await signIn(email, OPERATOR_PASSWORD, code);
    expect(replay.statusCode).toBe(401);
    expect(replay.data.message).toBe(
      'Sign-in refused: the e-mail, the password or the second-factor code is wrong, the one-time password was used or has expired, or the account is disabled.',
    );

    // Signing out ends the token at once.
    const out = await call(t.app, {
      method: 'DELETE',
      url: '/ops/v1/sessions/current',
      headers: bearer(again.data.session.token),
    });
    expect(out.statusCode).toBe(200);
    expect(
      (await call(t.app, { method: 'GET', url: '/ops/v1/me', headers: bearer(again.data.session.token) }))
        .statusCode,
    ).toBe(401);
  });

  it('takes each recovery code once, in place of a TOTP code', async () => {
    const admin = await enrolledOperator(t.app, t.deps, 'support', () => now);
    const [first, second] = admin.recoveryCodes as [string, string];
    const used = await signIn(admin.email, admin.password, first.toUpperCase());
    expect(used.statusCode).toBe(201);
    expect((await signIn(admin.email, admin.password, first)).statusCode).toBe(401);
    const me = await call(t.app, {
      method: 'GET',
      url: '/ops/v1/me',
      headers: bearer(used.data.session.token),
    });
    expect(me.data.session.recovery_codes_left).toBe(9);
    // Typed without its dashes, another one works.
    expect((await signIn(admin.email, admin.password, second.replace(/-/g, ''))).statusCode).toBe(201);
    // Renewing them (with a current code) ends the old ones.
    later(30);
    const renewed = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/me/recovery-codes',
      headers: bearer(used.data.session.token),
      payload: { code: codeFor(admin.secret, now) },
    });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.data.recovery_codes).toHaveLength(10);
    expect((await signIn(admin.email, admin.password, admin.recoveryCodes[2])).statusCode).toBe(401);
    expect((await signIn(admin.email, admin.password, renewed.data.recovery_codes[0])).statusCode).toBe(201);
  });

  it('counts failed sign-ins per account and per address, never the successful ones', async () => {
    const op = await enrolledOperator(t.app, t.deps, 'support', () => now);
    // Ten failures from one address, then even the right password and code are refused there (429)…
    const address = from();
    for (let i = 0; i < 10; i++)
      expect((await signIn(op.email, 'wrong password!!', null, address)).statusCode).toBe(401);
    later(30);
    const limited = await signIn(op.email, op.password, codeFor(op.secret, now), address);
    expect(limited.statusCode).toBe(429);
    expect(limited.data.error).toBe('rate_limited');

    // …while from one office address, many operators signing in successfully never lock each other out.
    const office = from();
    const people = [];
    for (let i = 0; i < 3; i++) people.push(await enrolledOperator(t.app, t.deps, 'dispatcher', () => now));
    for (let round = 0; round < 5; round++) {
      later(30);
      for (const person of people)
        expect(
          (await signIn(person.email, person.password, codeFor(person.secret, now), office)).statusCode,
        ).toBe(201);
    }
  });
});

describe("an operator's session", () => {
  it('ends after 30 minutes unused and 12 hours after sign-in however active; the hourly cleanup drops the dead', async () => {
    const op = await enrolledOperator(t.app, t.deps, 'support', () => now);
    const me = (token: string) => call(t.app, { method: 'GET', url: '/ops/v1/me', headers: bearer(token) });
    later(29 * 60);
    expect((await me(op.token)).statusCode).toBe(200);
    later(31 * 60);
    expect((await me(op.token)).statusCode).toBe(401);

    later(30);
    const active = (await signIn(op.email, op.password, codeFor(op.secret, now))).data.session;
    expect(Date.parse(active.expires_at) - now.getTime()).toBe(12 * 3600_000);
    for (let i = 0; i < 24; i++) {
      later(29 * 60);
      expect((await me(active.token)).statusCode, `after ${i + 1} × 29 min`).toBe(200);
    }
    later(29 * 60);
    expect((await me(active.token)).statusCode).toBe(401);

    // A setup session is for setting up now: 15 minutes.
    const { oneTimePassword, operator } = await t.deps.operators.add(
      { email: operatorEmail('slow'), name: 'Slow', role: 'support' },
      TEST_ACTOR,
    );
    const setup = (await signIn(operator.email, oneTimePassword)).data.session;
    later(10 * 60);
    expect((await me(setup.token)).statusCode).toBe(200);
    later(6 * 60);
    expect((await me(setup.token)).statusCode).toBe(401);

    later(30);
    const idle = (await signIn(op.email, op.password, codeFor(op.secret, now))).data.session;
    later(31 * 60);
    const dead = await t.pool.query(
      'SELECT count(*)::int AS n FROM operator_sessions WHERE operator_id = $1',
      [op.id],
    );
    expect(dead.rows[0].n).toBeGreaterThan(0);
    expect(await t.deps.operatorSessions.deleteExpired()).toBeGreaterThan(0);
    const left = await t.pool.query(
      'SELECT count(*)::int AS n FROM operator_sessions WHERE operator_id = $1',
      [op.id],
    );
    expect(left.rows[0].n).toBe(0);
    expect((await me(idle.token)).statusCode).toBe(401);
  });

  it('after a password reset, asks the second factor with the one-time password, then the new password', async () => {
    const op = await enrolledOperator(t.app, t.deps, 'dispatcher', () => now);
    const { oneTimePassword } = await t.deps.operators.resetPassword(op.email, TEST_ACTOR);
    expect(
      (await call(t.app, { method: 'GET', url: '/ops/v1/me', headers: bearer(op.token) })).statusCode,
    ).toBe(401);
    later(30);
    expect((await signIn(op.email, oneTimePassword)).statusCode).toBe(401);
    // The refusal did not use the one-time password up.
    const setup = await signIn(op.email, oneTimePassword, codeFor(op.secret, now));
    expect(setup.statusCode).toBe(201);
    expect(setup.data.session.setup).toEqual({ choose_password: true, enrol_second_factor: false });
    const chosen = await call(t.app, {
      method: 'PUT',
      url: '/ops/v1/me/password',
      headers: bearer(setup.data.session.token),
      payload: { password: 'a brand new passphrase 7' },
    });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.data.session.setup).toBeNull();
    const rounds = await call(t.app, {
      method: 'GET',
      url: '/ops/v1/rounds?date=2026-03-02',
      headers: bearer(chosen.data.session.token),
    });
    expect(rounds.statusCode).toBe(200);
    // Changing it again, signed in, takes the current one (a wrong one is the field's error).
    const wrong = await call(t.app, {
      method: 'PUT',
      url: '/ops/v1/me/password',
      headers: bearer(chosen.data.session.token),
      payload: { current_password: 'not it at all', password: 'yet another passphrase 8' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.data.details[0].field).toBe('current_password');
  });
});

describe('roles on the operations API', () => {
  it('refuses the dispatcher the finance routes (403 naming the scope) and lets the admin through', async () => {
    const admin = await enrolledOperator(t.app, t.deps, 'admin', () => now);
    const dispatcher = await enrolledOperator(t.app, t.deps, 'dispatcher', () => now);
    const brand = await createBrandWithKey(t.deps);
    const finance: [string, string, unknown?][] = [
      ['POST', '/ops/v1/invoices/issue', { month: '2020-01' }],
      ['GET', `/ops/v1/brands/${brand.brandId}/invoices`],
      ['POST', '/ops/v1/invoices/inv_0000000000000000/mark-paid'],
      ['GET', '/ops/v1/grids/default'],
      ['PUT', `/ops/v1/brands/${brand.brandId}/grid`, { rows: [] }],
    ];
    for (const [method, url, payload] of finance) {
      const res = await call(t.app, {
        method: method as 'GET',
        url,
        headers: bearer(dispatcher.token),
        payload: payload as object,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.data.error).toBe('insufficient_scope');
      expect(res.data.message).toMatch(
        /^Your role \(dispatcher\) does not allow "(invoices|grids):(read|write)"/,
      );
      expect(res.data.message).toContain('admin, finance');
    }
    // What the dispatcher's role is for works.
    const rounds = await call(t.app, {
      method: 'GET',
      url: '/ops/v1/rounds?date=2026-03-02',
      headers: bearer(dispatcher.token),
    });
    expect(rounds.statusCode).toBe(200);

    const issued = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/invoices/issue',
      headers: bearer(admin.token),
      payload: { month: '2020-01' },
    });
    expect(issued.statusCode).toBe(200);
    expect(issued.data).toEqual({ ok: true, period: '2020-01', issued: [], held: [] });
    const listed = await call(t.app, {
      method: 'GET',
      url: `/ops/v1/brands/${brand.brandId}/invoices`,
      headers: bearer(admin.token),
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.data.invoices[0]).toMatchObject({ status: 'draft' });
    const grid = await call(t.app, {
      method: 'GET',
      url: '/ops/v1/grids/default',
      headers: bearer(admin.token),
    });
    expect(grid.statusCode).toBe(200);
    expect(grid.data.row_count).toBeGreaterThan(0);

    // A role change applies to the open session at once.
    await t.deps.operators.setRole(dispatcher.email, 'finance', TEST_ACTOR);
    const now403 = await call(t.app, {
      method: 'GET',
      url: '/ops/v1/rounds?date=2026-03-02',
      headers: bearer(dispatcher.token),
    });
    expect(now403.statusCode).toBe(403);
    const nowFinance = await call(t.app, {
      method: 'GET',
      url: '/ops/v1/grids/default',
      headers: bearer(dispatcher.token),
    });
    expect(nowFinance.statusCode).toBe(200);
  });

  it('lets an admin manage people through the API, a disabled operator losing sessions and sign-in at once', async () => {
    const admin = await enrolledOperator(t.app, t.deps, 'admin', () => now);
    const added = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/operators',
      headers: bearer(admin.token),
      payload: { email: operatorEmail('api'), name: 'Sam Support', role: 'support' },
    });
    expect(added.statusCode).toBe(201);
    expect(added.data.operator).toMatchObject({
      role: 'support',
      must_choose_password: true,
      second_factor_enrolled_at: null,
    });
    expect(added.data.one_time_password).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    const taken = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/operators',
      headers: bearer(admin.token),
      payload: { email: added.data.operator.email.toUpperCase(), name: 'Again', role: 'support' },
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.data.details[0].field).toBe('email');

    const dispatcher = await enrolledOperator(t.app, t.deps, 'dispatcher', () => now);
    // A dispatcher manages no people.
    const refused = await call(t.app, {
      method: 'POST',
      url: `/ops/v1/operators/${dispatcher.id}/disable`,
      headers: bearer(dispatcher.token),
    });
    expect(refused.statusCode).toBe(403);
    const disabled = await call(t.app, {
      method: 'POST',
      url: `/ops/v1/operators/${dispatcher.id}/disable`,
      headers: bearer(admin.token),
    });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.data.operator.disabled_at).not.toBeNull();
    const gone = await call(t.app, { method: 'GET', url: '/ops/v1/me', headers: bearer(dispatcher.token) });
    expect(gone.statusCode).toBe(401);
    later(30);
    expect(
      (await signIn(dispatcher.email, dispatcher.password, codeFor(dispatcher.secret, now))).statusCode,
    ).toBe(401);
    const sessions = await t.pool.query(
      'SELECT count(*)::int AS n FROM operator_sessions WHERE operator_id = $1',
      [dispatcher.id],
    );
    expect(sessions.rows[0].n).toBe(0);
    const reset = await call(t.app, {
      method: 'POST',
      url: `/ops/v1/operators/${dispatcher.id}/reset-password`,
      headers: bearer(admin.token),
    });
    expect(reset.statusCode).toBe(422);
    expect(reset.data.error).toBe('operator_disabled');
  });

  it("lets an admin reset another's second factor: their sessions end and they enrol again", async () => {
    const admin = await enrolledOperator(t.app, t.deps, 'admin', () => now);
    const lost = await enrolledOperator(t.app, t.deps, 'finance', () => now);
    const reset = await call(t.app, {
      method: 'POST',
      url: `/ops/v1/operators/${lost.email}/reset-second-factor`,
      headers: bearer(admin.token),
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.data.operator).toMatchObject({
      second_factor_enrolled_at: null,
      must_choose_password: true,
    });
    expect(
      (await call(t.app, { method: 'GET', url: '/ops/v1/me', headers: bearer(lost.token) })).statusCode,
    ).toBe(401);
    // The old password, the old codes, the old secret: nothing of them signs in.
    later(30);
    expect((await signIn(lost.email, lost.password, codeFor(lost.secret, now))).statusCode).toBe(401);
    expect((await signIn(lost.email, lost.password, lost.recoveryCodes[0])).statusCode).toBe(401);
    const fresh = await signIn(lost.email, reset.data.one_time_password);
    expect(fresh.statusCode).toBe(201);
    expect(fresh.data.session.setup).toEqual({ choose_password: true, enrol_second_factor: true });
    const recovery = await t.pool.query(
      'SELECT count(*)::int AS n FROM operator_recovery_codes WHERE operator_id = $1',
      [lost.id],
    );
    expect(recovery.rows[0].n).toBe(0);
  });

  it('keeps one enabled admin: the last is neither demoted nor disabled', async () => {
    const enabledAdmins = async () =>
      (await t.deps.operators.list()).filter((o) => o.role === 'admin' && !o.disabledAt);
    // Leave exactly one enabled admin on this scratch database.
    const admins = await enabledAdmins();
    const last =
      admins.at(-1) ??
      (await t.deps.operators.add({ email: operatorEmail('last'), name: 'Last', role: 'admin' }, TEST_ACTOR))
        .operator;
    for (const other of await enabledAdmins())
      if (other.id !== last.id) await t.deps.operators.disable(other.id, TEST_ACTOR);
    await expect(t.deps.operators.setRole(last.id, 'support', TEST_ACTOR)).rejects.toMatchObject({
      code: 'last_admin',
    });
    await expect(t.deps.operators.disable(last.id, TEST_ACTOR)).rejects.toMatchObject({ code: 'last_admin' });
    const next = await t.deps.operators.add(
      { email: operatorEmail('next'), name: 'Next', role: 'admin' },
      TEST_ACTOR,
    );
    expect((await t.deps.operators.setRole(last.id, 'support', TEST_ACTOR)).role).toBe('support');
    expect((await enabledAdmins()).map((o) => o.id)).toEqual([next.operator.id]);
  });
});

describe("finance's routes", () => {
  it('issue a month, list and mark invoices paid, show and replace grids: the services dlv uses', async () => {
    const brand = await createBrandWithKey(t.deps);
    now = new Date('2025-12-10T10:00:00Z');
    const { trackingRef } = await t.deps.orders.create(
      { id: brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' },
      { customer_email: 'a@b.fr', delivery_address: '12 rue Oberkampf 75011 Paris' },
    );
    expect(trackingRef).toMatch(/^DLV-/);
    now = new Date('2026-01-05T09:00:00Z');
    const finance = bearer((await enrolledOperator(t.app, t.deps, 'finance', () => now)).token);

    const issued = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/invoices/issue',
      headers: finance,
      payload: { month: '2025-12' },
    });
    expect(issued.statusCode).toBe(200);
    const mine = issued.data.issued.find((i: { brand_id: string }) => i.brand_id === brand.brandId);
    expect(mine.invoice).toMatchObject({
      period: '2025-12',
      status: 'issued',
      order_count: 1,
      number: 'F2026-000001',
    });
    const again = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/invoices/issue',
      headers: finance,
      payload: { month: '2025-12' },
    });
    expect(again.data.issued).toEqual([]);
    const notOver = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/invoices/issue',
      headers: finance,
      payload: { month: '2026-01' },
    });
    expect(notOver.statusCode).toBe(400);
    expect(notOver.data.details[0].field).toBe('month');

    const listed = await call(t.app, {
      method: 'GET',
      url: `/ops/v1/brands/${brand.brandId}/invoices?status=issued`,
      headers: finance,
    });
    expect(listed.data.invoices.map((i: { id: string }) => i.id)).toEqual([mine.invoice.id]);
    const detail = await call(t.app, {
      method: 'GET',
      url: `/ops/v1/brands/${brand.brandId}/invoices/${mine.invoice.id}`,
      headers: finance,
    });
    expect(detail.data.invoice.lines).toHaveLength(1);
    const paid = await call(t.app, {
      method: 'POST',
      url: `/ops/v1/invoices/${mine.invoice.id}/mark-paid`,
      headers: finance,
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.data).toMatchObject({ brand_id: brand.brandId, invoice: { status: 'paid' } });
    const unknown = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/invoices/inv_0000000000000000/mark-paid',
      headers: finance,
    });
    expect(unknown.statusCode).toBe(404);

    const rows = [
      {
        service: 'standard',
        zone: 'paris',
        unit_type: 'parcel',
        max_weight_kg: 30,
        first_unit_eur: 9.9,
        extra_unit_eur: 4.5,
      },
    ];
    const imported = await call(t.app, {
      method: 'PUT',
      url: `/ops/v1/brands/${brand.brandId}/grid`,
      headers: finance,
      payload: { description: 'Negotiated in December', rows },
    });
    expect(imported.statusCode).toBe(200);
    expect(imported.data).toMatchObject({ scope: brand.brandId, row_count: 1 });
    expect(imported.data.holes.length).toBeGreaterThan(0);
    const shown = await call(t.app, {
      method: 'GET',
      url: `/ops/v1/brands/${brand.brandId}/grid`,
      headers: finance,
    });
    expect(shown.data).toMatchObject({ source: 'negotiated', row_count: 1, rows });
    const refused = await call(t.app, {
      method: 'PUT',
      url: `/ops/v1/brands/${brand.brandId}/grid`,
      headers: finance,
      payload: { rows: [rows[0], rows[0]] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.data.details[0].field).toBe('row 2');
    expect(
      (await call(t.app, { method: 'GET', url: `/ops/v1/brands/${brand.brandId}/grid`, headers: finance }))
        .data.rows,
    ).toEqual(rows);
    const byDefault = await call(t.app, { method: 'GET', url: '/ops/v1/grids/default', headers: finance });
    const replaced = await call(t.app, {
      method: 'PUT',
      url: '/ops/v1/grids/default',
      headers: finance,
      payload: { rows: byDefault.data.rows },
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.data).toMatchObject({ scope: 'default', row_count: byDefault.data.row_count });

    // Brands: finance reads them, an admin creates one.
    expect(
      (await call(t.app, { method: 'GET', url: `/ops/v1/brands/${brand.brandId}`, headers: finance })).data
        .brand.id,
    ).toBe(brand.brandId);
    const byFinance = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/brands',
      headers: finance,
      payload: { name: 'Nope' },
    });
    expect(byFinance.statusCode).toBe(403);
    const admin = bearer((await enrolledOperator(t.app, t.deps, 'admin', () => now)).token);
    const created = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/brands',
      headers: admin,
      payload: { name: 'Maison Ops', pickup_address: '5 rue du Dépôt 93200 Saint-Denis' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.data.brand).toMatchObject({ name: 'Maison Ops', webhooks_allowed: false });
    const outOfZone = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/brands',
      headers: admin,
      payload: { name: 'Maison Lyon', pickup_address: '1 rue de Lyon 69002 Lyon' },
    });
    expect(outOfZone.statusCode).toBe(422);
    expect(outOfZone.data.error).toBe('out_of_zone');
  });
});

describe('the TOTP secret at rest', () => {
  it('is sealed: neither its bytes nor its base32 are in the database', async () => {
    const op = await enrolledOperator(t.app, t.deps, 'support', () => now);
    const { rows } = await t.pool.query<{ totp_secret: Buffer }>(
      'SELECT totp_secret FROM operators WHERE id = $1',
      [op.id],
    );
    const sealed = rows[0]!.totp_secret;
    const raw = Buffer.from(op.secret, 'utf8');
    expect(sealed.length).toBe(1 + 12 + 16 + 20);
    const dump = (
      await t.pool.query<{ t: string }>('SELECT row_to_json(o)::text AS t FROM operators o WHERE id = $1', [
        op.id,
      ])
    ).rows[0]!.t;
    expect(dump).not.toContain(op.secret);
    const { base32Decode } = await import('../src/domain/operators/totp.ts');
    expect(sealed.includes(base32Decode(op.secret))).toBe(false);
    expect(dump.includes(raw.toString('hex'))).toBe(false);
  });
});

describe('dlv operators', () => {
  it('adds, lists, changes a role, resets and disables, with --json and exit codes', async () => {
    const env = { DATABASE_URL: t.databaseUrl, LOG_LEVEL: 'silent' };
    const email = operatorEmail('cli');
    const added = await runDlv(
      ['operators', 'add', '--email', email, '--name', 'Cli Person', '--role', 'dispatcher', '--json'],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
    const json = JSON.parse(added.stdout);
    expect(json.operator).toMatchObject({ email, role: 'dispatcher', must_choose_password: true });
    expect(json.one_time_password).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    expect((await signIn(email, json.one_time_password)).statusCode).toBe(201);

    const human = await runDlv(['operators', 'reset-2fa', email], env);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/one-time password \(shown once, give it to the person\): [a-z2-9-]{19}/);
    const role = await runDlv(['operators', 'set-role', email, 'finance', '--json'], env);
    expect(JSON.parse(role.stdout).operator.role).toBe('finance');
    const badRole = await runDlv(['operators', 'set-role', email, 'boss'], env);
    expect(badRole.code).toBe(1);
    expect(badRole.stderr).toContain('role: must be one of admin, dispatcher, finance, support');
    const missing = await runDlv(['operators', 'add', '--email', email, '--name', 'X'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--role is required');
    const taken = await runDlv(
      ['operators', 'add', '--email', email, '--name', 'X', '--role', 'support'],
      env,
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('email');
    const disabled = await runDlv(['operators', 'disable', email, '--json'], env);
    expect(JSON.parse(disabled.stdout).operator.disabled_at).not.toBeNull();
    const list = JSON.parse((await runDlv(['operators', 'list', '--json'], env)).stdout);
    expect(list.operators.find((o: { email: string }) => o.email === email)).toMatchObject({
      role: 'finance',
    });
    const unknown = await runDlv(['operators', 'disable', 'nobody@ops.example'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No operator nobody@ops.example');
  });
});
