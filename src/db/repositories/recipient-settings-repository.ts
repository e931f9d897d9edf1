import { createHash } from 'node:crypto';
import {
  DEFAULT_RECIPIENT_SETTINGS,
  type NotificationStep,
  type RecipientSettings,
  type RecipientSettingsRepository,
} from '../../domain/recipients/ports.ts';
import { checkSettings } from '../../domain/recipients/settings-rules.ts';
import { AppError } from '../../errors.ts';
import type { Queryable } from '../pool.ts';

const COLUMNS =
  'brand_id, email_steps, sms_steps, sender_name, colour, logo_sha256, locale, shop_notifies, updated_at';

interface Row {
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

const toSettings = (r: Row): RecipientSettings => ({
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

/** A brand that does not exist is `not_found`, like any other object of another brand. */
function mapped(err: unknown, brandId: string): unknown {
  if ((err as { code?: string }).code === '23503')
    return new AppError('not_found', `No brand with id "${brandId}".`);
  return err;
}

/**
 * The brands' recipient settings (table brand_recipient_settings, migration 0035): no row is the
 * defaults, so a brand that never chose costs nothing. The logo's bytes are read only by `logo`.
 */
export function recipientSettingsRepository(db: Queryable): RecipientSettingsRepository {
  return {
    async get(brandId) {
      const { rows } = await db.query<Row>({
        name: 'recipientSettings.get',
        text: `SELECT ${COLUMNS} FROM brand_recipient_settings WHERE brand_id = $1`,
        values: [brandId],
      });
      return rows[0] ? toSettings(rows[0]) : { brandId, ...DEFAULT_RECIPIENT_SETTINGS };
    },

    async save(input) {
      const s = checkSettings(input);
      try {
        const { rows } = await db.query<Row>(
          `INSERT INTO brand_recipient_settings
             (brand_id, email_steps, sms_steps, sender_name, colour, locale, shop_notifies)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (brand_id) DO UPDATE SET email_steps = EXCLUDED.email_steps,
             sms_steps = EXCLUDED.sms_steps, sender_name = EXCLUDED.sender_name,
             colour = EXCLUDED.colour, locale = EXCLUDED.locale,
             shop_notifies = EXCLUDED.shop_notifies, updated_at = now()
           RETURNING ${COLUMNS}`,
          [s.brandId, s.emailSteps, s.smsSteps, s.senderName, s.colour, s.locale, s.shopNotifies],
        );
        return toSettings(rows[0]!);
      } catch (err) {
        throw mapped(err, s.brandId);
      }
    },

    async setLogo(brandId, png) {
      const sha256 = png ? createHash('sha256').update(png).digest('hex') : null;
      try {
        // A brand without a row gets the defaults' columns (the table's own defaults) and the logo.
        const { rows } = await db.query<Row>(
          `INSERT INTO brand_recipient_settings (brand_id, logo_png, logo_sha256) VALUES ($1, $2, $3)
           ON CONFLICT (brand_id) DO UPDATE SET logo_png = EXCLUDED.logo_png,
             logo_sha256 = EXCLUDED.logo_sha256, updated_at = now()
           RETURNING ${COLUMNS}`,
          [brandId, png, sha256],
        );
        return toSettings(rows[0]!);
      } catch (err) {
        throw mapped(err, brandId);
      }
    },

    async logo(brandId, sha256) {
      const { rows } = await db.query<{ logo_png: Buffer }>({
        name: 'recipientSettings.logo',
        text: 'SELECT logo_png FROM brand_recipient_settings WHERE brand_id = $1 AND logo_sha256 = $2',
        values: [brandId, sha256],
      });
      return rows[0]?.logo_png ?? null;
    },
  };
}
