import { randomBytes } from 'node:crypto';
import type { Queryable } from '../pool.ts';

/** Secrets generated once and shared by every instance through the database (server_secrets). */
export function serverSecretsRepository(db: Queryable) {
  return {
    /**
     * The secret called `name`, created with 32 random bytes if there is none yet. Instances starting
     * together race on the insert; the primary key lets one win and all read its value.
     */
    async getOrCreate(name: string): Promise<Buffer> {
      const { rows } = await db.query<{ value: Buffer }>(
        `WITH created AS (
           INSERT INTO server_secrets (name, value) VALUES ($1, $2)
           ON CONFLICT (name) DO NOTHING RETURNING value)
         SELECT value FROM created UNION ALL SELECT value FROM server_secrets WHERE name = $1`,
        [name, randomBytes(32)],
      );
      if (rows[0]) return rows[0].value;
      // Lost the race to an insert committed after this statement's snapshot: read it afresh.
      const again = await db.query<{ value: Buffer }>('SELECT value FROM server_secrets WHERE name = $1', [
        name,
      ]);
      return again.rows[0]!.value;
    },
  };
}
