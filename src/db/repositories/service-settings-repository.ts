import type { Queryable } from '../pool.ts';

export interface ServiceSetting {
  value: string;
  updatedAt: Date;
}

/** Settings a process of the deployment records for the others (service_settings). */
export function serviceSettingsRepository(db: Queryable) {
  return {
    async get(name: string): Promise<ServiceSetting | null> {
      const { rows } = await db.query<{ value: string; updated_at: Date }>(
        'SELECT value, updated_at FROM service_settings WHERE name = $1',
        [name],
      );
      return rows[0] ? { value: rows[0].value, updatedAt: rows[0].updated_at } : null;
    },

    /** Sets it; an unchanged value keeps its time (instances restarting with the same one write nothing). */
    async set(name: string, value: string): Promise<void> {
      await db.query(
        `INSERT INTO service_settings (name, value) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()
         WHERE service_settings.value IS DISTINCT FROM EXCLUDED.value`,
        [name, value],
      );
    },
  };
}
