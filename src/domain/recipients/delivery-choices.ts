import { AppError, type ErrorDetail } from '../../errors.ts';
import { nextBusinessDay } from '../calendar/business-days.ts';
import type { OrderStatus } from '../orders/state-machine.ts';
import type { SafePlaceKind } from './self-service-ports.ts';

/**
 * While the recipient may still change the delivery (SPEC §10): before the parcel is out for
 * delivery, or after a failed attempt. Not while the address is awaited (no day to move), nor once
 * it is with the courier, delivered, returned or cancelled.
 */
const SELF_SERVICE_STATUSES: readonly OrderStatus[] = [
  'pending',
  'picked_up',
  'in_transit',
  'failed_attempt',
];

export const isOpenForChanges = (status: OrderStatus) => SELF_SERVICE_STATUSES.includes(status);

export const SAFE_PLACE_KINDS: readonly SafePlaceKind[] = [
  'neighbour',
  'caretaker',
  'behind_door',
  'letterbox_area',
  'other',
];

const MAX_INSTRUCTIONS = 500;
const MAX_SAFE_PLACE_DETAIL = 200;
const DAYS_OFFERED = 5;

/**
 * The days a recipient may choose: the 5 business days after the later of the promised day and
 * today (the rates' calendar: no weekend, no French public holiday). Free for the brand.
 */
export function daysOffered(promisedDate: string | null, today: string): string[] {
  let day = promisedDate && promisedDate > today ? promisedDate : today;
  const days: string[] = [];
  for (let i = 0; i < DAYS_OFFERED; i++) {
    day = nextBusinessDay(day);
    days.push(day);
  }
  return days;
}

/** What the recipient asked for, as typed in the form. */
export interface ChoiceInput {
  instructions: string;
  safePlace: string;
  safePlaceDetail: string;
  /** '' keeps the current day. */
  date: string;
}

/** The choices once checked: words trimmed, nothing for an empty field. */
export interface CheckedChoices {
  instructions: string | null;
  safePlace: { kind: SafePlaceKind; detail: string | null } | null;
  date: string | null;
}

/** Why a field of the form was refused; the page words it in the reader's language. */
export type ChoiceProblem =
  | { field: 'instructions'; reason: 'too_long' }
  | { field: 'safe_place'; reason: 'unknown' }
  | { field: 'safe_place_detail'; reason: 'too_long' | 'without_place' }
  | { field: 'date'; reason: 'not_offered' };

const PROBLEM_TEXT: Record<string, string> = {
  'instructions:too_long': `must be at most ${MAX_INSTRUCTIONS} characters`,
  'safe_place:unknown': `must be one of ${SAFE_PLACE_KINDS.join(', ')}`,
  'safe_place_detail:too_long': `must be at most ${MAX_SAFE_PLACE_DETAIL} characters`,
  'safe_place_detail:without_place': 'needs a safe place',
  'date:not_offered': 'is not one of the days offered',
};

/** A 400 listing every refused field of the form: nothing of it was stored. */
export class ChoiceRefusal extends AppError {
  constructor(readonly problems: readonly ChoiceProblem[]) {
    const details: ErrorDetail[] = problems.map((p) => ({
      field: p.field,
      message: PROBLEM_TEXT[`${p.field}:${p.reason}`]!,
    }));
    super('invalid_request', details.map((d) => `${d.field}: ${d.message}`).join('; '), details);
  }
}

// Characters, not UTF-16 units: an emoji or an accented letter counts once, as the reader sees it.
const length = (text: string) => [...text].length;

/** Checks the form whole: every problem at once, the date against the days offered now. */
export function checkChoices(input: ChoiceInput, offered: readonly string[]): CheckedChoices {
  const problems: ChoiceProblem[] = [];
  const instructions = input.instructions.trim();
  if (length(instructions) > MAX_INSTRUCTIONS) problems.push({ field: 'instructions', reason: 'too_long' });
  const kind = input.safePlace.trim();
  const detail = input.safePlaceDetail.trim();
  const known = SAFE_PLACE_KINDS.find((k) => k === kind);
  if (kind !== '' && kind !== 'none' && !known) problems.push({ field: 'safe_place', reason: 'unknown' });
  if (length(detail) > MAX_SAFE_PLACE_DETAIL)
    problems.push({ field: 'safe_place_detail', reason: 'too_long' });
  else if (detail !== '' && (kind === '' || kind === 'none'))
    problems.push({ field: 'safe_place_detail', reason: 'without_place' });
  const date = input.date.trim();
  if (date !== '' && !offered.includes(date)) problems.push({ field: 'date', reason: 'not_offered' });
  if (problems.length > 0) throw new ChoiceRefusal(problems);
  return {
    instructions: instructions || null,
    safePlace: known ? { kind: known, detail: detail || null } : null,
    date: date || null,
  };
}
