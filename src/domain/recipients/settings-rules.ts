import { AppError, fieldProblem, validateAll } from '../../errors.ts';
import { checkDisplayName } from '../shared/display-name.ts';
import { NOTIFICATION_STEPS, type NotificationStep, type RecipientSettings } from './ports.ts';

/** The settings a brand can choose, as the form or a caller gives them (`''`: none). */
export interface RecipientSettingsInput {
  emailSteps: readonly string[];
  smsSteps: readonly string[];
  /** '' for the brand's own name. */
  senderName: string;
  /** '' for the service's own colour. */
  colour: string;
  locale: string;
  shopNotifies: boolean;
}

/** What `save` stores: every member already checked. */
export type SettingsToSave = Omit<RecipientSettings, 'logoSha256' | 'updatedAt'>;

export const SENDER_NAME_MAX = 60;

const COLOUR = /^#[0-9a-f]{6}$/;

function steps(field: string, values: readonly string[]): NotificationStep[] {
  const unknown = values.filter((v) => !(NOTIFICATION_STEPS as readonly string[]).includes(v));
  if (unknown.length > 0)
    throw fieldProblem(field, 'steps.unknown', { allowed: NOTIFICATION_STEPS.join(', ') });
  // The steps' own order, each once: the same choice is always stored the same way.
  return NOTIFICATION_STEPS.filter((s) => values.includes(s));
}

function senderName(value: string): string | null {
  const name = value.trim();
  if (name === '') return null;
  checkDisplayName('sender_name', name);
  // Characters as a person counts them (an emoji is one), as PostgreSQL's length() does.
  const length = [...name].length;
  if (length > SENDER_NAME_MAX)
    throw fieldProblem('sender_name', 'length.between', { min: 1, max: SENDER_NAME_MAX });
  return name;
}

/** `#rrggbb` in lower case, or null; the only shape the tracking page's style is ever built from. */
function brandColour(value: string): string | null {
  const colour = value.trim().toLowerCase();
  if (colour === '') return null;
  if (!COLOUR.test(colour)) throw fieldProblem('colour', 'colour.format');
  return colour;
}

function locale(value: string): 'fr' | 'en' {
  if (value !== 'fr' && value !== 'en') throw fieldProblem('locale', 'locale.choice');
  return value;
}

/** Every field checked at once (one error naming each bad field), nothing kept of a bad input. */
export function validateSettingsInput(brandId: string, input: RecipientSettingsInput): SettingsToSave {
  const checked = validateAll({
    emailSteps: () => steps('email_steps', input.emailSteps),
    smsSteps: () => steps('sms_steps', input.smsSteps),
    senderName: () => senderName(input.senderName),
    colour: () => brandColour(input.colour),
    locale: () => locale(input.locale),
  });
  return { brandId, ...checked, shopNotifies: input.shopNotifies === true };
}

/**
 * The same rules on settings already typed (what a repository is asked to store): a caller that
 * skipped the form's validation still cannot store a colour the page would put in its style.
 */
export function checkSettings(settings: SettingsToSave): SettingsToSave {
  if (typeof settings.shopNotifies !== 'boolean')
    throw new AppError('invalid_request', 'shopNotifies must be a boolean.');
  return validateSettingsInput(settings.brandId, {
    emailSteps: settings.emailSteps,
    smsSteps: settings.smsSteps,
    senderName: settings.senderName ?? '',
    colour: settings.colour ?? '',
    locale: settings.locale,
    shopNotifies: settings.shopNotifies,
  });
}

/**
 * Black or white, whichever reads better on `colour` (WCAG 2 contrast ratio on its relative
 * luminance): the text drawn over the brand's colour stays readable whatever the brand picks.
 */
export function readableInk(colour: string): '#000000' | '#ffffff' {
  const channel = (hex: string) => {
    const c = Number.parseInt(hex, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l =
    0.2126 * channel(colour.slice(1, 3)) +
    0.7152 * channel(colour.slice(3, 5)) +
    0.0722 * channel(colour.slice(5, 7));
  const onBlack = (l + 0.05) / 0.05;
  const onWhite = 1.05 / (l + 0.05);
  return onBlack >= onWhite ? '#000000' : '#ffffff';
}
