import { createHash } from 'node:crypto';
import {
  DEFAULT_RECIPIENT_SETTINGS,
  type NotificationStep,
  type RecipientSettings,
  type RecipientSettingsRepository,
} from '../../domain/recipients/ports.ts';
import type { Queryable } from '../pool.ts';

interface SettingsRow {
  brand_id: string;
  email_steps: NotificationStep[];
  sms_steps: NotificationStep[];
  sender_name: string | null;
  colour: string | null;
  logo_sha256: string | null;
  locale: 'fr' | 'en';
  shop_notifies: boolean;
  updated_at: Date;
}

const COLUMNS =
  'brand_id, email_steps, sms_steps, sender_name, colour, logo_sha256, locale, shop_notifies, updated_at';

const toSettings = (r: SettingsRow): RecipientSettings => ({
  brandId: r.brand_id,
  emailSteps: r.email_steps,
  smsSteps: r.sms_steps,
  senderName: r.sender_name,
  colour: r.colour,
  logoSha256: r.logo_sha256,
  locale: r.locale,
  shopNotifies: r.shop_notifies,
  updatedAt: r.updated_at,
});

/** A brand's recipient settings (brand_recipient_settings); no row: the defaults (decision 0007). */
export function recipientSettingsRepository(db: Queryable): RecipientSettingsRepository {
  const get = async (brandId: string): Promise<RecipientSettings> => {
    const { rows } = await db.query<SettingsRow>(
      `SELECT ${COLUMNS} FROM brand_recipient_settings WHERE brand_id = $1`,
      [brandId],
    );
    return rows[0] ? toSettings(rows[0]) : { brandId, ...DEFAULT_RECIPIENT_SETTINGS };
  };
  return {
    get,
    async save(s) {
      const { rows } = await db.query<SettingsRow>(
        `INSERT INTO brand_recipient_settings
           (brand_id, email_steps, sms_steps, sender_name, colour, locale, shop_notifies)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (brand_id) DO UPDATE SET email_steps = $2, sms_steps = $3, sender_name = $4,
           colour = $5, locale = $6, shop_notifies = $7, updated_at = now()
         RETURNING ${COLUMNS}`,
        [s.brandId, s.emailSteps, s.smsSteps, s.senderName, s.colour, s.locale, s.shopNotifies],
      );
      return toSettings(rows[0]!);
    },
    async setLogo(brandId, png) {
      const sha = png ? createHash('sha256').update(png).digest('hex') : null;
      const { rows } = await db.query<SettingsRow>(
        `INSERT INTO brand_recipient_settings (brand_id, logo_png, logo_sha256) VALUES ($1, $2, $3)
         ON CONFLICT (brand_id) DO UPDATE SET logo_png = $2, logo_sha256 = $3, updated_at = now()
         RETURNING ${COLUMNS}`,
        [brandId, png, sha],
      );
      return toSettings(rows[0]!);
    },
    async logo(brandId, sha256) {
      const { rows } = await db.query<{ logo_png: Buffer }>(
        'SELECT logo_png FROM brand_recipient_settings WHERE brand_id = $1 AND logo_sha256 = $2',
        [brandId, sha256],
      );
      return rows[0]?.logo_png ?? null;
    },
  };
}
