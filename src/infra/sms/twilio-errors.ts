import { SmsError } from '../../domain/recipients/ports.ts';

/** Twilio's error body (twilio.com/docs/usage/twilios-response#response-formats-exceptions). */
interface TwilioErrorBody {
  code?: number;
  message?: string;
  more_info?: string;
  status?: number;
}

/**
 * What the codes we meet mean, in our own words: Twilio's `message` names the number it refused,
 * and the error travels to logs and to recipient_notifications.detail, where no number belongs.
 */
const KNOWN: Record<number, string> = {
  20003: 'authentication failed (TWILIO_ACCOUNT_SID / TWILIO_AUTH_TOKEN)',
  20429: 'too many requests',
  21211: "invalid 'To' number",
  21408: 'the destination region is not enabled on the account',
  21602: 'message body required',
  21604: "'Body' is required",
  21606: "the 'From' number cannot send SMS",
  21212: "invalid 'From' number",
  21610: 'the recipient answered STOP',
  21614: "the 'To' number cannot receive SMS",
};

/**
 * Twilio's refusal as an SmsError: throttling (429 / 20429) and its own failures (5xx) may pass,
 * so the job sends again later (after Retry-After when given); any other 4xx will not, whatever
 * the code (21211, 21408, 21614, 21610…): sending the same message again gets the same answer.
 */
export function twilioRefusal(status: number, text: string, retryAfterMs: number | null): SmsError {
  const body = parseErrorBody(text);
  const code = typeof body?.code === 'number' ? body.code : null;
  const meaning = code !== null ? KNOWN[code] : undefined;
  const what = `HTTP ${status}${code !== null ? `, code ${code}` : ''}${meaning ? `: ${meaning}` : ''}`;
  const transient = status === 429 || code === 20429 || status >= 500;
  return new SmsError(
    transient ? `Twilio cannot take the message now (${what})` : `Twilio refused the message (${what})`,
    !transient,
    code !== null ? String(code) : null,
    transient ? retryAfterMs : null,
  );
}

function parseErrorBody(text: string): TwilioErrorBody | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' ? (parsed as TwilioErrorBody) : null;
  } catch {
    // A proxy's HTML page in front of Twilio: the status alone decides.
    return null;
  }
}
