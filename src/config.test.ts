import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, ENV_SCHEMA, loadConfig } from './config.ts';
import { DEFAULT_SELLER, frenchVatKey } from './domain/invoices/seller.ts';

const SELLER = {
  SELLER_NAME: 'Coursiers Réunis SAS',
  SELLER_ADDRESS: '5 rue du Faubourg Saint-Denis | 75010 Paris | France',
  SELLER_SIREN: '552 100 554',
  SELLER_VAT_NUMBER: 'fr 96 552100554',
};

describe('loadConfig', () => {
  it('uses defaults for an empty environment, with the placeholder seller', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: null,
      dataDir: '/srv/app/data',
    });
    expect(config.seller).toBe(DEFAULT_SELLER);
    expect(config.sellerIsPlaceholder).toBe(true);
  });

  it('knows whether DATA_DIR was chosen (as root, only a default one may have its cluster moved)', () => {
    expect(loadConfig({}, '/srv/app')).toMatchObject({
      dataDirIsDefault: true,
      embeddedPgRootDir: '/var/lib/delivery-orders-api',
    });
    expect(loadConfig({ DATA_DIR: ' ' }, '/srv/app').dataDirIsDefault).toBe(true);
    expect(loadConfig({ DATA_DIR: 'data', EMBEDDED_PG_ROOT_DIR: '/srv/pg' }, '/srv/app')).toMatchObject({
      dataDir: '/srv/app/data',
      dataDirIsDefault: false,
      embeddedPgRootDir: '/srv/pg',
    });
  });

  it('reads the seller printed on invoices, normalising SIREN and VAT number', () => {
    const config = loadConfig({ ...SELLER, SELLER_EMAIL: 'compta@example.fr' });
    expect(config.sellerIsPlaceholder).toBe(false);
    expect(config.seller).toEqual({
      name: 'Coursiers Réunis SAS',
      address: ['5 rue du Faubourg Saint-Denis', '75010 Paris', 'France'],
      siren: '552 100 554',
      vatNumber: 'FR96552100554',
      email: 'compta@example.fr',
    });
  });

  it('refuses a half-configured seller, a malformed SIREN and a VAT number of another SIREN', () => {
    const { SELLER_SIREN: _, ...withoutSiren } = SELLER;
    expect(() => loadConfig(withoutSiren)).toThrow(/missing SELLER_SIREN/);
    expect(() => loadConfig({ ...SELLER, SELLER_SIREN: '55210055' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...SELLER, SELLER_VAT_NUMBER: 'FR45552100554' })).toThrow(/FR96552100554/);
  });

  it('reads the e-invoicing settings: the seller’s SIRET and IBAN checked, the platform complete', () => {
    const config = loadConfig({
      ...SELLER,
      SELLER_SIRET: '552 100 554 00013',
      SELLER_IBAN: 'fr76 3000 6000 0112 3456 7890 189',
    });
    expect(config.seller).toMatchObject({ siret: '55210055400013', iban: 'FR7630006000011234567890189' });
    expect(config.einvoicing).toEqual({
      vatOnDebits: false,
      platform: { kind: 'directory', dir: expect.stringMatching(/einvoices$/) },
    });
    expect(() => loadConfig({ ...SELLER, SELLER_SIRET: '73282932000017' })).toThrow(
      /starting with the SIREN 552100554/,
    );
    expect(() => loadConfig({ ...SELLER, SELLER_IBAN: 'FR7630006000011234567890188' })).toThrow(
      /SELLER_IBAN's check digits/,
    );
    expect(() => loadConfig({ ...SELLER, SELLER_ADDRESS: '5 rue du Faubourg | Paris' })).toThrow(
      /postcode and the city/,
    );
    expect(() => loadConfig({ EINVOICE_PLATFORM: 'afnor' })).toThrow(/missing EINVOICE_PA_FLOW_URL/);
    const pa = {
      EINVOICE_PLATFORM: 'afnor',
      EINVOICE_PA_FLOW_URL: 'https://api.pa.example/afnor-flow/',
      EINVOICE_PA_TOKEN_URL: 'https://auth.pa.example/token',
      EINVOICE_PA_CLIENT_ID: 'id',
      EINVOICE_PA_CLIENT_SECRET: 'secret',
      EINVOICE_VAT_ON_DEBITS: 'yes',
    };
    expect(loadConfig(pa).einvoicing).toEqual({
      vatOnDebits: true,
      platform: {
        kind: 'afnor',
        flowUrl: 'https://api.pa.example/afnor-flow',
        tokenUrl: 'https://auth.pa.example/token',
        clientId: 'id',
        clientSecret: 'secret',
      },
    });
    expect(() => loadConfig({ ...pa, EINVOICE_PA_FLOW_URL: 'http://pa.example/flow' })).toThrow(
      /must be https/,
    );
  });

  it('computes French VAT keys the official way (the placeholder is consistent)', () => {
    expect(frenchVatKey('552100554')).toBe('96');
    expect(frenchVatKey('303265045')).toBe('40');
    expect(frenchVatKey('404833048')).toBe('83');
    expect(DEFAULT_SELLER.vatNumber).toBe(
      `FR${frenchVatKey(DEFAULT_SELLER.siren)}${DEFAULT_SELLER.siren.replace(/ /g, '')}`,
    );
  });

  it('rejects bad numbers and log levels with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT must be an integer/);
    expect(() => loadConfig({ RATE_LIMIT_BURST: '0' })).toThrow(/RATE_LIMIT_BURST/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('takes a CURSOR_SECRET of at least 32 characters, else none (a key kept in the database)', () => {
    expect(loadConfig({}).cursorSecret).toBeNull();
    expect(loadConfig({ CURSOR_SECRET: 'k'.repeat(32) }).cursorSecret).toBe('k'.repeat(32));
    expect(() => loadConfig({ CURSOR_SECRET: 'short' })).toThrow(/CURSOR_SECRET must be at least 32/);
  });

  it('takes an OPT_OUT_KEY of 64 hex characters as its bytes, else none (generated in development)', () => {
    expect(loadConfig({}).optOutKey).toBeNull();
    expect(loadConfig({ OPT_OUT_KEY: 'aB'.repeat(32) }).optOutKey).toEqual(
      Buffer.from('ab'.repeat(32), 'hex'),
    );
    expect(() => loadConfig({ OPT_OUT_KEY: 'ab'.repeat(16) })).toThrow(/OPT_OUT_KEY must be 64 hexadecimal/);
  });
});

describe('the environment schema', () => {
  it('believes X-Forwarded-For from no proxy by default, else from TRUST_PROXY', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY/);
  });

  it('has deadlines against slow clients, the headers no later than the whole request', () => {
    expect(loadConfig({})).toMatchObject({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 65_000,
      maxConnectionsPerAddress: 256,
    });
    expect(loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '0' }).maxConnectionsPerAddress).toBe(0);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      /HEADERS_TIMEOUT_MS must be at most REQUEST_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '10' })).toThrow(/REQUEST_TIMEOUT_MS must be between/);
  });

  it('keeps the message logs 90 days and a recipient’s data 365 days after the order ended, unless told otherwise', () => {
    expect(loadConfig({}).retention).toEqual({ messageLogDays: 90, recipientDataDays: 365, auditDays: 365 });
    expect(
      loadConfig({
        MESSAGE_LOG_RETENTION_DAYS: '30',
        RECIPIENT_DATA_RETENTION_DAYS: '180',
        AUDIT_RETENTION_DAYS: '730',
      }).retention,
    ).toEqual({ messageLogDays: 30, recipientDataDays: 180, auditDays: 730 });
    // The database itself refuses to drop a month of the audit trail younger than 90 days.
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: '30' })).toThrow(
      'AUDIT_RETENTION_DAYS must be between 90 and 3650, got "30"',
    );
    // Under a week, a delivery still retried (about three days) or a shop's webhook not yet processed could go.
    expect(() => loadConfig({ MESSAGE_LOG_RETENTION_DAYS: '3' })).toThrow(
      'MESSAGE_LOG_RETENTION_DAYS must be between 7 and 3650, got "3"',
    );
    expect(() => loadConfig({ RECIPIENT_DATA_RETENTION_DAYS: '0' })).toThrow(
      'RECIPIENT_DATA_RETENTION_DAYS must be between 1 and 3650, got "0"',
    );
    expect(() => loadConfig({ RECIPIENT_DATA_RETENTION_DAYS: 'a year' })).toThrow(
      'RECIPIENT_DATA_RETENTION_DAYS must be an integer, got "a year"',
    );
  });

  it("is the one list of variables, each documented in the operator guide's configuration table", async () => {
    const { readFile } = await import('node:fs/promises');
    const readme = await readFile(new URL('../docs/operator-guide.md', import.meta.url), 'utf8');
    for (const name of Object.keys(ENV_SCHEMA.properties)) {
      expect(readme, `${name} in docs/operator-guide.md`).toMatch(new RegExp(`\\| \`${name}\`|\`${name}\``));
    }
  });

  // #36 item 3: a 1-character OPS_TOKEN was accepted, and `METRICS_TOKEN must be at least 16
  // characters …, got "change-me"` printed the secret it refused.
  it('refuses an OPS_TOKEN under 32 characters, saying how to make one', () => {
    expect(loadConfig({ OPS_TOKEN: 'o'.repeat(32) }).opsToken).toBe('o'.repeat(32));
    expect(() => loadConfig({ OPS_TOKEN: 'x' })).toThrow(
      'OPS_TOKEN must be at least 32 characters (e.g. `openssl rand -hex 32`), got 1 character (the value of a secret is not shown)',
    );
  });

  it('never repeats the value of a secret it refuses', () => {
    const refused: Record<string, string> = {
      OPS_TOKEN: 'change-me',
      METRICS_TOKEN: 'change-me',
      CURSOR_SECRET: 'change-me',
      CONNECTOR_SECRET_KEY: 'change-me',
      RECIPIENT_DATA_KEY: 'change-me',
      SMTP_URL: 'http://user:change-me@mail.example',
    };
    for (const [name, value] of Object.entries(refused)) {
      let message = '';
      try {
        loadConfig({ [name]: value });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, name).toMatch(new RegExp(`^${name} must `));
      expect(message, name).not.toContain('change-me');
      expect(message, name).toContain('the value of a secret is not shown');
    }
  });

  it('marks every credential of the schema as a secret', () => {
    const secrets = Object.entries(ENV_SCHEMA.properties)
      .filter(([, schema]) => (schema as { secret?: true }).secret)
      .map(([name]) => name);
    const looksSecret = Object.keys(ENV_SCHEMA.properties).filter((name) =>
      /TOKEN|SECRET|PASSWORD|PRIVATE_KEY|DATA_KEY|_URL$/.test(name),
    );
    // CONSOLE_MAP_TILE_URL is written into the map page for every operator's browser: no credential.
    const notSecret = ['PUBLIC_BASE_URL', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'CONSOLE_MAP_TILE_URL'];
    expect(looksSecret.filter((name) => !notSecret.includes(name) && !secrets.includes(name))).toEqual([]);
    expect(secrets).toEqual(
      expect.arrayContaining(['OPS_TOKEN', 'METRICS_TOKEN', 'DATABASE_URL', 'SMTP_URL']),
    );
  });

  it('names the variable and what it must be', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow('PORT must be between 0 and 65535, got "70000"');
    expect(() => loadConfig({ RUN_WORKER: 'maybe' })).toThrow(/RUN_WORKER must be a boolean/);
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'ftp://x' })).toThrow(
      /PUBLIC_BASE_URL must be an http\(s\) URL/,
    );
    expect(loadConfig({ RUN_WORKER: 'off', PORT: ' 8080 ', HOST: '' })).toMatchObject({
      runWorker: false,
      port: 8080,
      host: '127.0.0.1',
    });
  });

  describe('the Shopify connector', () => {
    const APP = { SHOPIFY_API_KEY: 'client-id', SHOPIFY_API_SECRET: 'client-secret' };
    const KEY = 'ab'.repeat(32);

    it('is off without its credentials, and needs both', () => {
      expect(loadConfig({}).shopify).toBeNull();
      expect(() => loadConfig({ SHOPIFY_API_KEY: 'client-id' })).toThrow(ConfigError);
    });

    it('refuses to start outside development without CONNECTOR_SECRET_KEY', () => {
      expect(() => loadConfig({ ...APP, PUBLIC_BASE_URL: 'https://api.example.fr' })).toThrow(
        /CONNECTOR_SECRET_KEY is required/,
      );
      const published = loadConfig({
        ...APP,
        PUBLIC_BASE_URL: 'https://api.example.fr',
        CONNECTOR_SECRET_KEY: KEY,
      });
      expect(published.connectorSecretKey).toEqual(Buffer.from(KEY, 'hex'));
      expect(published.shopify).toEqual({
        apiKey: 'client-id',
        apiSecret: 'client-secret',
        adminOriginTemplate: 'https://{shop}',
        carrierName: 'Livraison DLV',
      });
    });

    it('starts in development (PUBLIC_BASE_URL unset or http) without the key', () => {
      expect(loadConfig(APP).connectorSecretKey).toBeNull();
      expect(loadConfig({ ...APP, PUBLIC_BASE_URL: 'http://127.0.0.1:3000' }).shopify).not.toBeNull();
    });

    it('checks the key and the admin origin template', () => {
      expect(() => loadConfig({ ...APP, CONNECTOR_SECRET_KEY: 'short' })).toThrow(/64 hexadecimal/);
      expect(() => loadConfig({ ...APP, SHOPIFY_ADMIN_ORIGIN_TEMPLATE: 'https://example.com' })).toThrow(
        /containing \{shop\}/,
      );
      expect(
        loadConfig({ ...APP, SHOPIFY_ADMIN_ORIGIN_TEMPLATE: 'http://127.0.0.1:4000/{shop}/' }).shopify
          ?.adminOriginTemplate,
      ).toBe('http://127.0.0.1:4000/{shop}');
    });
  });

  describe('Twilio (SMS)', () => {
    const SID = `AC${'0a'.repeat(16)}`;
    const TWILIO = {
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: 'f'.repeat(32),
      SMS_FROM: '+33757000001',
      PUBLIC_BASE_URL: 'https://api.example.fr/',
    };

    it('is off without its settings (SMS go to files), and on with all three', () => {
      expect(loadConfig({}).twilio).toBeNull();
      expect(loadConfig(TWILIO).twilio).toEqual({
        accountSid: SID,
        authToken: 'f'.repeat(32),
        from: '+33757000001',
        apiBase: 'https://api.twilio.com',
      });
    });

    it('needs all of TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and SMS_FROM, and PUBLIC_BASE_URL', () => {
      expect(() => loadConfig({ TWILIO_ACCOUNT_SID: SID })).toThrow(
        'set all of TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, SMS_FROM, or none; missing TWILIO_AUTH_TOKEN, SMS_FROM',
      );
      expect(() => loadConfig({ ...TWILIO, SMS_FROM: '' })).toThrow(/missing SMS_FROM/);
      expect(() => loadConfig({ ...TWILIO, PUBLIC_BASE_URL: undefined })).toThrow(
        /PUBLIC_BASE_URL is required/,
      );
    });

    it('checks each value', () => {
      expect(() => loadConfig({ ...TWILIO, TWILIO_ACCOUNT_SID: 'SK'.padEnd(34, '0') })).toThrow(
        /TWILIO_ACCOUNT_SID must be AC followed by 32 hexadecimal/,
      );
      expect(() => loadConfig({ ...TWILIO, TWILIO_AUTH_TOKEN: 'secret' })).toThrow(
        /TWILIO_AUTH_TOKEN must be/,
      );
      expect(() => loadConfig({ ...TWILIO, SMS_FROM: '0757000001' })).toThrow(
        /SMS_FROM must be a number in E\.164/,
      );
      expect(() => loadConfig({ ...TWILIO, TWILIO_API_BASE: 'ftp://x' })).toThrow(
        /TWILIO_API_BASE must be an http/,
      );
    });

    it('takes plain http for the API only on the loopback', () => {
      expect(() => loadConfig({ ...TWILIO, TWILIO_API_BASE: 'http://api.twilio.com' })).toThrow(
        /TWILIO_API_BASE must be https \(http only on the loopback\)/,
      );
      expect(loadConfig({ ...TWILIO, TWILIO_API_BASE: 'http://127.0.0.1:4010/' }).twilio?.apiBase).toBe(
        'http://127.0.0.1:4010',
      );
      expect(loadConfig({ ...TWILIO, TWILIO_API_BASE: 'http://[::1]:4010' }).twilio?.apiBase).toBe(
        'http://[::1]:4010',
      );
    });
  });
});

describe('DKIM', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

  it('are off by default', () => {
    expect(loadConfig({})).toMatchObject({ dkim: null, smsFrom: null });
  });

  it('DKIM: all three or none, a key that parses (newlines written \\n accepted)', () => {
    const dkim = { DKIM_DOMAIN: 'Livraison-DLV.fr', DKIM_SELECTOR: 'dlv2026', DKIM_PRIVATE_KEY: pem };
    expect(loadConfig(dkim).dkim).toEqual({
      domain: 'livraison-dlv.fr',
      selector: 'dlv2026',
      privateKey: pem.trim(),
    });
    expect(loadConfig({ ...dkim, DKIM_PRIVATE_KEY: pem.replace(/\n/g, '\\n') }).dkim?.privateKey.trim()).toBe(
      pem.trim(),
    );
    expect(() => loadConfig({ DKIM_DOMAIN: 'livraison-dlv.fr', DKIM_SELECTOR: 's1' })).toThrow(
      /set all of DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY, or none; missing DKIM_PRIVATE_KEY/,
    );
    expect(() => loadConfig({ ...dkim, DKIM_PRIVATE_KEY: 'not a key' })).toThrow(
      /DKIM_PRIVATE_KEY must be an RSA private key in PEM/,
    );
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => loadConfig({ ...dkim, DKIM_PRIVATE_KEY: ed })).toThrow(/must be an RSA private key/);
    expect(() => loadConfig({ ...dkim, DKIM_DOMAIN: 'no_domain' })).toThrow(
      /DKIM_DOMAIN must be a domain name/,
    );
  });
});

describe('places (GEOCODER_*, OSRM_*)', () => {
  it('are off by default: npm start calls no geocoder nor router', () => {
    expect(loadConfig({})).toMatchObject({ geocoder: null, router: null });
  });

  it('read the geocoder and the router with their defaults', () => {
    expect(
      loadConfig({ GEOCODER_URL: 'https://api-adresse.data.gouv.fr/', OSRM_URL: 'http://osrm:5000' }),
    ).toMatchObject({
      geocoder: {
        url: 'https://api-adresse.data.gouv.fr',
        timeoutMs: 3000,
        ratePerSecond: 40,
        budgetMs: 300,
      },
      router: { url: 'http://osrm:5000', timeoutMs: 5000, profiles: ['van'] },
    });
    expect(
      loadConfig({ OSRM_URL: 'http://osrm:5000', OSRM_PROFILES: 'van, cargo_bike,van' }).router?.profiles,
    ).toEqual(['van', 'cargo_bike']);
  });

  it('name what is wrong', () => {
    expect(() => loadConfig({ GEOCODER_URL: 'addok:7878' })).toThrow('GEOCODER_URL must be an http(s) URL');
    expect(() => loadConfig({ OSRM_PROFILES: 'truck' })).toThrow(
      'OSRM_PROFILES must be a comma-separated list of cargo_bike, van, on_foot, got "truck"',
    );
    expect(() => loadConfig({ GEOCODER_RATE_PER_SECOND: '0' })).toThrow(
      /GEOCODER_RATE_PER_SECOND must be between 1/,
    );
  });
});

describe('emissions (EMISSION_*)', () => {
  it('defaults to the arrêté of 26 April 2017 and parcel allocation', () => {
    const { emissions } = loadConfig({});
    expect(emissions).toMatchObject({
      allocation: 'parcel',
      diesel: { gramsPerLitre: 3170, source: expect.stringContaining('Arrêté du 26 avril 2017') },
      grid: { gramsPerKwh: 48, source: expect.stringContaining('France métropolitaine') },
      energyUse: { van: 10, electric_van: 25, cargo_bike: 1.5 },
    });
  });

  it("takes the operator's factors with their sources, energy uses and rule", () => {
    const { emissions } = loadConfig({
      EMISSION_ALLOCATION: 'distance',
      EMISSION_DIESEL_G_PER_L: '3100',
      EMISSION_DIESEL_SOURCE: 'Base Carbone, Gazole routier B7, France continentale, 2024',
      EMISSION_ENERGY_USE: 'van=9.5, cargo_bike=2',
    });
    expect(emissions).toEqual({
      allocation: 'distance',
      diesel: { gramsPerLitre: 3100, source: 'Base Carbone, Gazole routier B7, France continentale, 2024' },
      grid: expect.objectContaining({ gramsPerKwh: 48 }),
      energyUse: { van: 9.5, electric_van: 25, cargo_bike: 2 },
    });
  });

  it('refuses a factor without its source, an unknown rule or kind, with what is wrong', () => {
    expect(() => loadConfig({ EMISSION_GRID_G_PER_KWH: '60' })).toThrow(
      /EMISSION_GRID_SOURCE must say where/,
    );
    expect(() => loadConfig({ EMISSION_ALLOCATION: 'weight' })).toThrow(/EMISSION_ALLOCATION/);
    expect(() => loadConfig({ EMISSION_ENERGY_USE: 'truck=30' })).toThrow(
      /EMISSION_ENERGY_USE names "truck"/,
    );
    expect(() => loadConfig({ EMISSION_ENERGY_USE: 'van=ten' })).toThrow(/EMISSION_ENERGY_USE/);
  });
});
