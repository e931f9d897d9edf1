import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createPool } from '../../src/db/pool.ts';
import { createDeps } from '../../src/deps.ts';
import { startWorker } from '../../src/worker.ts';
import { testOperator } from '../support/audit.ts';
import { startFakeAfnorPa } from '../support/fake-afnor-pa.ts';
import { DLV_BIN } from '../support/run-cli.ts';
import { eventually } from '../support/webhook-receiver.ts';
import { useOwnedCluster } from './harness.ts';

const { state, cleanup } = useOwnedCluster();

describe('crash safety: a worker killed with SIGKILL in the middle of an e-invoice submission', () => {
  it('has the document on the platform once: the next worker finds it there instead of sending it again', async () => {
    const url = state.cluster.url;
    const pa = await startFakeAfnorPa();
    cleanup.push(() => pa.close());
    const env = {
      DATABASE_URL: url,
      // The worker writes links (e-mails, webhooks): outside development it refuses to guess them.
      PUBLIC_BASE_URL: 'https://delivery.example',
      LOG_LEVEL: 'silent',
      EINVOICE_PLATFORM: 'afnor',
      EINVOICE_PA_FLOW_URL: pa.config.flowUrl,
      EINVOICE_PA_TOKEN_URL: pa.config.tokenUrl,
      EINVOICE_PA_CLIENT_ID: pa.config.clientId,
      EINVOICE_PA_CLIENT_SECRET: pa.config.clientSecret,
    };
    const config = loadConfig(env);
    const pool = createPool(url, 6);
    cleanup.push(() => pool.end());

    // Last month's orders of a brand with what an e-invoice needs, issued here (no worker yet).
    const lastMonth = new Date();
    lastMonth.setUTCDate(1);
    lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
    lastMonth.setUTCDate(12);
    lastMonth.setUTCHours(10);
    const deps = createDeps(config, pool, () => lastMonth);
    const brand = await deps.brands.create(
      {
        name: 'Chaos Factur-X',
        pickupAddress: '1 rue de Rivoli 75001 Paris',
      },
      testOperator,
    );
    await deps.brands.updateCompany(
      brand.id,
      {
        legalName: '',
        billingAddress: '3 rue de Rivoli\n75004 Paris',
        siren: '732829320',
        vatNumber: 'FR44732829320',
        pickupAddress: '1 rue de Rivoli 75001 Paris',
      },
      testOperator,
    );
    for (let i = 0; i < 3; i++)
      await deps.orders.create(brand, {
        customer_email: 'c@example.com',
        delivery_address: '1 rue X 75011 Paris',
      });
    const { issued } = await createDeps(config, pool).invoices.issueDue();
    const invoice = issued.find((i) => i.brandId === brand.id)!;
    const number = invoice.number!;

    // Worker A (`dlv worker`, a process of its own) submits: the platform stores the document, and A
    // is killed before the answer reaches it.
    const stored = pa.holdNextSubmission();
    const a = spawn(process.execPath, [DLV_BIN, 'worker', '--concurrency', '2'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise((resolve) => a.once('exit', resolve));
    cleanup.push(async () => {
      a.kill('SIGKILL');
      await exited;
    });
    // A worker that exits before submitting (its reason on stderr above) fails here, not at the timeout.
    await Promise.race([
      stored,
      exited.then((code) => {
        throw new Error(`worker A exited (code ${String(code)}) before submitting the invoice`);
      }),
    ]);
    a.kill('SIGKILL');
    await exited;
    pa.release();
    expect(pa.submissions(number)).toHaveLength(1);
    const before = await deps.einvoices.details(invoice.id);
    expect(before?.transmission).toMatchObject({ status: 'pending', flowId: null });

    // Worker B takes the job A held (A's heartbeat stopped): it asks the platform first.
    const bPool = createPool(url, 8);
    cleanup.push(() => bPool.end());
    const b = await startWorker(createDeps(config, bPool), { concurrency: 2, pollIntervalMs: 200 });
    cleanup.push(() => b.stop());
    const killedAt = Date.now();
    const after = await eventually(async () => {
      const details = await deps.einvoices.details(invoice.id);
      return details?.transmission.status === 'deposited' && details;
    }, 75_000);
    expect(pa.submissions(number)).toHaveLength(1);
    expect(after.transmission.flowId).toBe(pa.submissions(number)[0]!.flowId);
    console.info(
      `[chaos] worker SIGKILLed mid-submission of ${number}: recorded by another worker ${((Date.now() - killedAt) / 1000).toFixed(1)} s later, sent once`,
    );
  }, 150_000);
});
