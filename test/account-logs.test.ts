import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createPool } from '../src/db/pool.ts';
import { createDeps, type Deps } from '../src/deps.ts';
import { loggerOptions } from '../src/http/shared/logging.ts';
import { Browser, createUser, csrfOf, keyOf, PASSWORD } from './support/account-browser.ts';
import { testConfig } from './support/app.ts';

// The account area at trace level: no session token, CSRF token, password or new key in any log line.
const lines: string[] = [];
let deps: Deps;
let app: Awaited<ReturnType<typeof buildApp>>;
let pool: ReturnType<typeof createPool>;
beforeAll(async () => {
  const config = testConfig();
  pool = createPool(config.databaseUrl!, 4);
  deps = createDeps(config, pool);
  app = await buildApp(deps, { logger: loggerOptions('trace', { write: (line) => lines.push(line) }) });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await pool.end();
});

describe('account area logs', () => {
  it('hold no session token, CSRF token, password or API key', async () => {
    const user = await createUser(deps);
    const b = new Browser(app, '10.77.0.1');
    expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
    const keysPage = await b.get('/account/keys');
    const created = await b.follow(
      b.post('/account/keys', {
        _csrf: csrfOf(keysPage.body),
        name: 'Logged?',
        scopes: ['orders:read'],
        password: PASSWORD,
      }),
    );
    const key = keyOf(created.body)!;
    expect(key).toBeTruthy();
    const session = b.cookies.get('dlv_session');
    expect(session).toBeTruthy();
    const secrets = [key, PASSWORD, csrfOf(keysPage.body), session!, decodeURIComponent(session!)];
    expect(lines.length).toBeGreaterThan(5);
    const log = lines.join('\n');
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(10);
      expect(log.includes(secret), `a secret in the logs: ${secret.slice(0, 6)}…`).toBe(false);
    }
  });
});
