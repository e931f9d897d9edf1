import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '../src/deps.ts';
import { afnorFlowPlatform } from '../src/infra/einvoicing/afnor-flow-platform.ts';
import { readLifecycleCdar } from '../src/infra/einvoicing/cdar.ts';
import {
  API,
  buildTestApp,
  call,
  createBrandWithKey,
  type TestApp,
  type TestBrand,
  testConfig,
} from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { type FakeAfnorPa, startFakeAfnorPa } from './support/fake-afnor-pa.ts';
import { createScratchDatabase } from './support/scratch-database.ts';

// The AFNOR XP Z12-013 adapter against a faithful fake of a platform's Flow Service.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let pa: FakeAfnorPa;
let now = new Date('2026-10-02T09:00:00Z');
let einvoices: Deps['einvoices'];
const OPS = { authorization: 'Bearer ops-secret-token-0123456789abcdef' };

beforeAll(async () => {
  scratch = await createScratchDatabase();
  pa = await startFakeAfnorPa({ tokenLifetimeSeconds: 3600 });
  t = await buildTestApp({
    config: { databaseUrl: scratch.url, opsToken: 'ops-secret-token-0123456789abcdef' },
    clock: () => now,
  });
  // The services with the adapter on the fake, as EINVOICE_PLATFORM=afnor and EINVOICE_PA_* make them.
  einvoices = createDeps(testConfig({ databaseUrl: scratch.url }), t.pool, () => now, {
    einvoicePlatform: afnorFlowPlatform(pa.config),
  }).einvoices;
});
afterAll(async () => {
  await t?.close();
  await pa?.close();
  await scratch?.drop();
});

/** A brand with `count` orders in `month`, that month issued: the invoice's id and number. */
async function issuedInvoice(
  month: string,
  count = 2,
): Promise<{ brand: TestBrand; id: string; number: string }> {
  const brand = await createBrandWithKey(t.deps);
  for (let i = 0; i < count; i++) {
    now = new Date(`${month}-1${i}T09:00:00Z`);
    await t.deps.orders.create(
      { id: brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' },
      { customer_email: 'a@b.fr', delivery_address: '12 rue Oberkampf 75011 Paris' },
    );
  }
  const [year, m] = month.split('-').map(Number) as [number, number];
  now = new Date(Date.UTC(m === 12 ? year + 1 : year, m === 12 ? 0 : m, 1, 6));
  const { issued } = await t.deps.invoices.issueMonth(month, testOperator);
  const invoice = issued.find((i) => i.brandId === brand.brandId)!;
  return { brand, id: invoice.id, number: invoice.number! };
}

const statusOf = async (brand: TestBrand, id: string) =>
  (await call(t.app, { method: 'GET', url: `${API}/invoices/${id}`, headers: brand.headers })).data.invoice;

describe('the AFNOR flow adapter against its fake platform', () => {
  it('submits the Factur-X, then brings back received, a refusal with its reason, and shows it to the operator', async () => {
    const { brand, id, number } = await issuedInvoice('2026-01');
    const sent = await einvoices.submit(id);
    expect(sent).toMatchObject({ status: 'deposited', platform: 'afnor' });
    const [flow] = pa.submissions(number);
    expect(flow).toMatchObject({ flowSyntax: 'Factur-X', processingRule: 'B2B', name: `${number}.pdf` });
    expect(flow!.file.subarray(0, 5).toString()).toBe('%PDF-');
    expect(sent.flowId).toBe(flow!.flowId);

    pa.acknowledge(number, 'Ok');
    pa.lifecycle(number, '202');
    pa.lifecycle(number, '210', { code: 'REF_CT_ABSENT', text: 'le bon de commande BC-118 manque' });
    const synced = await einvoices.sync();
    expect(synced.changed).toBe(2);
    const invoice = await statusOf(brand, id);
    expect(invoice.einvoice_status).toBe('refused');
    expect(invoice.einvoice_status_reason).toBe(
      '210 Refusée: REF_CT_ABSENT — le bon de commande BC-118 manque',
    );
    const ops = await call(t.app, { method: 'GET', url: `/ops/v1/invoices/${id}`, headers: OPS });
    expect(ops.data.einvoice.history.map((h: { status: string }) => h.status)).toEqual([
      'pending',
      'deposited',
      'received',
      'refused',
    ]);
    // Read again (the cursor moved on): nothing new, nothing changed twice.
    expect(await einvoices.sync()).toEqual({ read: 0, changed: 0 });
  });

  it('brings back an acceptance, and the payment data once the invoice is marked paid', async () => {
    const { brand, id, number } = await issuedInvoice('2026-02');
    await einvoices.submit(id);
    pa.lifecycle(number, '205');
    await einvoices.sync();
    expect((await statusOf(brand, id)).einvoice_status).toBe('accepted');

    now = new Date('2026-03-10T10:00:00Z');
    await t.deps.invoices.markPaid(id, testOperator);
    expect(await einvoices.reportPayment(id)).toBe(true);
    const payment = pa.submissions(`${number}-212`);
    expect(payment).toHaveLength(1);
    expect(payment[0]!.flowSyntax).toBe('CDAR');
    const cdar = payment[0]!.file.toString('utf8');
    expect(readLifecycleCdar(cdar)).toMatchObject({ invoiceNumber: number, code: '212', status: 'paid' });
    const invoice = await statusOf(brand, id);
    expect(cdar).toContain(
      `<ram:ValueAmount currencyID="EUR">${invoice.total_eur.toFixed(2)}</ram:ValueAmount>`,
    );
    expect(cdar).toContain('<ram:ValuePercent>20</ram:ValuePercent>');
    expect(cdar).toContain('20260310');
    expect(invoice.einvoice_status).toBe('paid');
    // Sent once: a second run of the job finds it sent.
    expect(await einvoices.reportPayment(id)).toBe(false);
    expect(pa.submissions(`${number}-212`)).toHaveLength(1);
  });

  it('retries a platform outage without submitting the document twice (idempotent by its number)', async () => {
    const { id, number } = await issuedInvoice('2026-03');
    pa.fail(1, 503);
    await expect(einvoices.submit(id)).rejects.toThrow(/503 SERVICE_UNAVAILABLE/);
    expect(pa.submissions(number)).toHaveLength(0);
    const failed = await einvoices.details(id);
    expect(failed?.transmission).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed?.transmission.lastError).toMatch(/503/);

    // The next attempt reaches the platform, which takes the document, but the answer is lost.
    pa.loseAnswers(1);
    await expect(einvoices.submit(id)).rejects.toThrow(/504 GATEWAY_TIMEOUT/);
    expect(pa.submissions(number)).toHaveLength(1);
    expect((await einvoices.details(id))?.transmission).toMatchObject({ status: 'pending', attempts: 2 });
    // The job's next attempt finds it there: recorded, not sent again.
    const retried = await einvoices.submit(id);
    expect(retried).toMatchObject({ status: 'deposited', flowId: pa.submissions(number)[0]!.flowId });
    expect(pa.submissions(number)).toHaveLength(1);
  });

  it('finds a document the platform already has instead of sending it again', async () => {
    const { id, number } = await issuedInvoice('2026-04');
    // Another run got the document to the platform, then died before recording it.
    const other = afnorFlowPlatform(pa.config);
    const { pdf } = await t.deps.invoices.facturX(id);
    const { createHash } = await import('node:crypto');
    await other.submit({
      trackingId: number,
      typeCode: '380',
      fileName: `${number}.pdf`,
      pdf,
      sha256: createHash('sha256').update(pdf).digest('hex'),
    });
    const sent = await einvoices.submit(id);
    expect(sent.status).toBe('deposited');
    expect(sent.flowId).toBe(pa.submissions(number)[0]!.flowId);
    expect(pa.submissions(number)).toHaveLength(1);
  });

  it('waits out throttling, renews an expired token, and keeps a rejection with the platform’s reason', async () => {
    const { brand, id, number } = await issuedInvoice('2026-05');
    pa.fail(2, 429, '1');
    pa.revokeTokens();
    const sent = await einvoices.submit(id);
    expect(sent.status).toBe('deposited');
    expect(pa.requests.filter((r) => r.status === 429)).toHaveLength(2);
    expect(
      pa.requests.filter((r) => r.path === '/afnor-flow/v1/flows/search' && r.status === 401).length,
    ).toBeGreaterThan(0);

    pa.acknowledge(number, 'Error', [
      {
        item: 'BT-48',
        level: 'Error',
        reasonCode: 'BR-FR-12',
        reasonMessage: 'le numéro de TVA de l’acheteur est inconnu',
      },
    ]);
    await einvoices.sync();
    const invoice = await statusOf(brand, id);
    expect(invoice.einvoice_status).toBe('rejected');
    expect(invoice.einvoice_status_reason).toBe('le numéro de TVA de l’acheteur est inconnu (BR-FR-12)');
  });

  it('records a submission the platform refuses (its error body) as a rejection, without retrying it', async () => {
    const { brand, id, number } = await issuedInvoice('2026-06');
    pa.refuseNextSubmission(
      422,
      'SIREN_NOT_IN_DIRECTORY',
      "le SIREN de l'acheteur n'est pas dans l'annuaire",
    );
    const refused = await einvoices.submit(id);
    expect(refused.status).toBe('rejected');
    expect(refused.lastError).toContain('422 SIREN_NOT_IN_DIRECTORY');
    expect((await statusOf(brand, id)).einvoice_status_reason).toBe(
      "POST /v1/flows answered 422 SIREN_NOT_IN_DIRECTORY: le SIREN de l'acheteur n'est pas dans l'annuaire",
    );
    expect(pa.submissions(number)).toHaveLength(0);

    const refusing = afnorFlowPlatform({ ...pa.config, clientSecret: 'wrong' });
    await expect(refusing.updates(null)).rejects.toThrow(/token endpoint answered 401/);
    // A 400 with the platform's error body: kept as the reason, the document rejected.
    const original = pa.config.flowUrl;
    const broken = afnorFlowPlatform({ ...pa.config, flowUrl: `${original}` });
    const { pdf } = await t.deps.invoices.facturX(id);
    await expect(
      broken.submit({
        trackingId: 'F2026-999999',
        typeCode: '380',
        fileName: 'x.pdf',
        pdf,
        sha256: '0'.repeat(64),
      }),
    ).rejects.toMatchObject({ kind: 'refused', message: expect.stringContaining('400 INVALID_SHA256') });
  });
});
