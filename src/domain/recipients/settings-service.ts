import { AppError } from '../../errors.ts';
import type { Role, User } from '../accounts/user.ts';
import type { Author } from '../audit/actor.ts';
import { changedFields } from '../audit/changes.ts';
import type { AuditStore } from '../audit/ports.ts';
import { BRAND_ID_PATTERN } from '../brands/brand.ts';
import type { UnitOfWork } from '../shared/stores.ts';
import { type LogoCodec, logoFromUpload } from './logo.ts';
import type { RecipientSettings, RecipientSettingsRepository } from './ports.ts';
import { type RecipientSettingsInput, validateSettingsInput } from './settings-rules.ts';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Who chooses what the brand's recipients are told and how it looks: the owner (the account
 * area's one administrating role). Developers and finance people neither see nor change it.
 */
export const canEditRecipientSettings = (role: Role): boolean => role === 'owner';

export function mayEditRecipientSettings(user: User): void {
  if (!canEditRecipientSettings(user.role))
    throw new AppError('insufficient_scope', 'Only the owner can change the recipients’ notifications.');
}

/**
 * The brand's recipient settings: read by the notifications and the tracking page, set by the
 * owner. Each change is recorded in the audit trail (`brand.settings_changed`) with `by`.
 */
export interface RecipientSettingsService {
  get(brandId: string): Promise<RecipientSettings>;
  /** The logo's PNG when `sha256` is the brand's current one; null otherwise (an old or made-up URL). */
  logo(brandId: string, sha256: string): Promise<Buffer | null>;
  /** Validates every field (one 400 naming each bad one) and stores them; nothing on an error. */
  update(brandId: string, input: RecipientSettingsInput, by: Author): Promise<RecipientSettings>;
  /** Checks and re-encodes the upload (logo.ts), then stores the PNG; nothing on an error. */
  uploadLogo(brandId: string, bytes: Buffer | null, by: Author): Promise<RecipientSettings>;
  removeLogo(brandId: string, by: Author): Promise<RecipientSettings>;
}

/** What the trail compares: the brand's choices (its words and look, nobody's data). */
const fieldsOf = (s: RecipientSettings) => ({
  email_steps: [...s.emailSteps],
  sms_steps: [...s.smsSteps],
  sender_name: s.senderName,
  colour: s.colour,
  logo_sha256: s.logoSha256,
  locale: s.locale,
  shop_notifies: s.shopNotifies,
});
const NOTHING_PERSONAL: ReadonlySet<string> = new Set();

type SettingsStores = { settings: RecipientSettingsRepository; audit: AuditStore };

export function recipientSettingsService(deps: {
  settings: RecipientSettingsRepository;
  /** A change and its audit entry in one transaction. */
  transact: UnitOfWork<SettingsStores>;
  /** Told after each change is committed (the notifications' cache of who listens). */
  onChanged?: (brandId: string) => void;
  codec: LogoCodec;
}): RecipientSettingsService {
  const { settings, codec } = deps;

  async function change(
    brandId: string,
    by: Author,
    write: (stores: SettingsStores) => Promise<RecipientSettings>,
  ): Promise<RecipientSettings> {
    const saved = await deps.transact(async (stores) => {
      const before = await stores.settings.get(brandId);
      const after = await write(stores);
      const changes = changedFields(fieldsOf(before), fieldsOf(after), NOTHING_PERSONAL);
      if (changes)
        await stores.audit.record({
          action: 'brand.settings_changed',
          by,
          object: { type: 'brand', id: brandId },
          brandId,
          changes,
          details: { settings: 'recipient_notifications' },
        });
      return after;
    });
    deps.onChanged?.(brandId);
    return saved;
  }

  return {
    get: (brandId) => settings.get(brandId),

    async logo(brandId, sha256) {
      // Made-up URLs stop here, without a query.
      if (!BRAND_ID_PATTERN.test(brandId) || !SHA256_HEX.test(sha256)) return null;
      return settings.logo(brandId, sha256);
    },

    async update(brandId, input, by) {
      const checked = validateSettingsInput(brandId, input);
      return change(brandId, by, (stores) => stores.settings.save(checked));
    },

    async uploadLogo(brandId, bytes, by) {
      const png = await logoFromUpload(codec, bytes);
      return change(brandId, by, (stores) => stores.settings.setLogo(brandId, png));
    },

    removeLogo: (brandId, by) => change(brandId, by, (stores) => stores.settings.setLogo(brandId, null)),
  };
}
