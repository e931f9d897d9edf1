import { AppError } from '../../errors.ts';
import type { Role, User } from '../accounts/user.ts';
import { BRAND_ID_PATTERN } from '../brands/brand.ts';
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

/** The brand's recipient settings: read by the notifications and the tracking page, set by the owner. */
export interface RecipientSettingsService {
  get(brandId: string): Promise<RecipientSettings>;
  /** The logo's PNG when `sha256` is the brand's current one; null otherwise (an old or made-up URL). */
  logo(brandId: string, sha256: string): Promise<Buffer | null>;
  /** Validates every field (one 400 naming each bad one) and stores them; nothing on an error. */
  update(brandId: string, input: RecipientSettingsInput): Promise<RecipientSettings>;
  /** Checks and re-encodes the upload (logo.ts), then stores the PNG; nothing on an error. */
  uploadLogo(brandId: string, bytes: Buffer | null): Promise<RecipientSettings>;
  removeLogo(brandId: string): Promise<RecipientSettings>;
}

export function recipientSettingsService(deps: {
  settings: RecipientSettingsRepository;
  codec: LogoCodec;
}): RecipientSettingsService {
  const { settings, codec } = deps;
  return {
    get: (brandId) => settings.get(brandId),

    async logo(brandId, sha256) {
      // Made-up URLs stop here, without a query.
      if (!BRAND_ID_PATTERN.test(brandId) || !SHA256_HEX.test(sha256)) return null;
      return settings.logo(brandId, sha256);
    },

    update: (brandId, input) => settings.save(validateSettingsInput(brandId, input)),

    async uploadLogo(brandId, bytes) {
      return settings.setLogo(brandId, await logoFromUpload(codec, bytes));
    },

    removeLogo: (brandId) => settings.setLogo(brandId, null),
  };
}
