import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Config, ConfigError, isDevelopment } from '../config.ts';
import { keyedAddressKey } from '../domain/recipients/address-key.ts';
import { type Pool, withTransaction } from './pool.ts';
import { serverSecretsRepository } from './repositories/server-secrets-repository.ts';

/** Rows keyed per transaction when the unkeyed rows of before migration 0040 are keyed. */
const REKEY_BATCH = 1000;

const GENERATED_KEY_QUERY = "SELECT encode(value, 'hex') FROM server_secrets WHERE name = 'opt_out_key'";

export interface OptOutKeyring {
  /**
   * The key of the recipients' opt-out list and unsubscribe links: OPT_OUT_KEY, else 32 bytes
   * generated once and kept in server_secrets (`opt_out_key`), shared by every instance. Refused
   * (ConfigError) when it is not the key the list is already kept under. Loaded once per process.
   */
  key(): Promise<Buffer>;
  /**
   * The service's start-up (api, worker, all, migrate): OPT_OUT_KEY is required when the service is
   * published (https PUBLIC_BASE_URL), the key is checked, and the rows still unkeyed (before
   * migration 0040, or written by the previous release during a rolling upgrade) are keyed.
   * Returns how many rows were keyed.
   */
  ready(): Promise<number>;
}

type KeySource = 'setting' | 'generated';

const fingerprintOf = (key: Buffer) =>
  createHmac('sha256', key).update('dlv opt-out key fingerprint').digest().subarray(0, 16);

/** Why this process's key cannot be used, in a sentence that says what to set. */
function mismatch(own: KeySource, recorded: KeySource): string {
  if (own === 'setting' && recorded === 'generated')
    return (
      "OPT_OUT_KEY is not the key the recipients' opt-out list is kept under: that one was generated " +
      `in the database. Set OPT_OUT_KEY to it (${GENERATED_KEY_QUERY}) or unset OPT_OUT_KEY (docs/security.md, "The opt-out key")`
    );
  if (own === 'setting')
    return (
      "OPT_OUT_KEY is not the key the recipients' opt-out list is kept under: every instance and dlv " +
      'need the same OPT_OUT_KEY (another key would miss every opt-out; docs/security.md, "The opt-out key")'
    );
  if (recorded === 'setting')
    return (
      "OPT_OUT_KEY is not set, but the recipients' opt-out list is kept under it: give this process " +
      'the same OPT_OUT_KEY as the service (docs/security.md, "The opt-out key")'
    );
  return (
    "the opt-out key kept in the database (server_secrets, opt_out_key) is not the one the recipients' " +
    'opt-out list is kept under (was it replaced?): restore it, or set OPT_OUT_KEY to the original key'
  );
}

export function optOutKeyring(
  config: Pick<Config, 'optOutKey' | 'publicBaseUrl'>,
  pool: Pool,
): OptOutKeyring {
  const own: KeySource = config.optOutKey ? 'setting' : 'generated';
  let loaded: Promise<Buffer> | null = null;

  /** The key the list is kept under as recorded, recording this one if none is. */
  async function recorded(fingerprint: Buffer): Promise<{ fingerprint: Buffer; source: KeySource }> {
    const { rows } = await pool.query<{ fingerprint: Buffer; source: KeySource }>(
      `WITH recorded AS (
         INSERT INTO recipient_opt_out_key (fingerprint, source) VALUES ($1, $2)
         ON CONFLICT (only_row) DO NOTHING RETURNING fingerprint, source)
       SELECT fingerprint, source FROM recorded
       UNION ALL SELECT fingerprint, source FROM recipient_opt_out_key`,
      [fingerprint, own],
    );
    if (rows[0]) return rows[0];
    // Another process recorded its key between this statement's snapshot and its insert (two
    // starting together: the migrate job and an API): its row is committed now, so read it.
    const { rows: again } = await pool.query<{ fingerprint: Buffer; source: KeySource }>(
      'SELECT fingerprint, source FROM recipient_opt_out_key',
    );
    return again[0]!;
  }

  async function load(): Promise<Buffer> {
    if (!config.optOutKey) {
      // Kept under OPT_OUT_KEY: generating a key here would only leave an unused secret behind.
      const { rows } = await pool.query<{ source: KeySource }>('SELECT source FROM recipient_opt_out_key');
      if (rows[0]?.source === 'setting') throw new ConfigError(mismatch(own, 'setting'));
    }
    const key = config.optOutKey ?? (await serverSecretsRepository(pool).getOrCreate('opt_out_key'));
    const fingerprint = fingerprintOf(key);
    const list = await recorded(fingerprint);
    if (!timingSafeEqual(list.fingerprint, fingerprint)) throw new ConfigError(mismatch(own, list.source));
    return key;
  }

  const key = () => {
    loaded ??= load().catch((err: unknown) => {
      loaded = null;
      throw err;
    });
    return loaded;
  };

  /** One batch of unkeyed rows keyed (the earliest request kept on a clash); how many. */
  const keyBatch = (listKey: Buffer) =>
    withTransaction(pool, async (client) => {
      const { rows } = await client.query<{
        channel: string;
        address_hash: Buffer;
        source: string;
        created_at: Date;
      }>(
        `SELECT channel, address_hash, source, created_at FROM recipient_opt_outs
          WHERE NOT keyed ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [REKEY_BATCH],
      );
      if (rows.length === 0) return 0;
      await client.query(
        `INSERT INTO recipient_opt_outs AS o (channel, address_hash, source, created_at, keyed)
         SELECT channel, address_hash, source, created_at, true
           FROM unnest($1::text[], $2::bytea[], $3::text[], $4::timestamptz[])
             AS r (channel, address_hash, source, created_at)
         ON CONFLICT (channel, address_hash) DO UPDATE
           SET source = CASE WHEN excluded.created_at < o.created_at THEN excluded.source ELSE o.source END,
               created_at = least(o.created_at, excluded.created_at)`,
        [
          rows.map((r) => r.channel),
          rows.map((r) => keyedAddressKey(listKey, r.address_hash)),
          rows.map((r) => r.source),
          rows.map((r) => r.created_at),
        ],
      );
      await client.query(
        `DELETE FROM recipient_opt_outs o USING unnest($1::text[], $2::bytea[]) AS r (channel, address_hash)
          WHERE NOT o.keyed AND o.channel = r.channel AND o.address_hash = r.address_hash`,
        [rows.map((r) => r.channel), rows.map((r) => r.address_hash)],
      );
      return rows.length;
    });

  return {
    key,
    async ready() {
      if (!config.optOutKey && !isDevelopment(config.publicBaseUrl)) {
        const { rows } = await pool.query<{ source: KeySource }>('SELECT source FROM recipient_opt_out_key');
        throw new ConfigError(
          rows[0]?.source === 'generated'
            ? 'OPT_OUT_KEY is required when PUBLIC_BASE_URL is https; the opt-out list is kept under a key ' +
                `generated in the database while in development: set OPT_OUT_KEY to it (${GENERATED_KEY_QUERY}), ` +
                'then delete that row (docs/security.md, "The opt-out key")'
            : 'OPT_OUT_KEY is required when PUBLIC_BASE_URL is https: 64 hexadecimal characters ' +
                '(e.g. `openssl rand -hex 32`), the same for every instance and for dlv, kept with your ' +
                'other secrets: the opt-out list cannot be read without it (docs/security.md, "The opt-out key")',
        );
      }
      const listKey = await key();
      let total = 0;
      for (let n = REKEY_BATCH; n === REKEY_BATCH; total += n) n = await keyBatch(listKey);
      return total;
    },
  };
}
