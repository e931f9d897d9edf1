import type { ConnectorWording } from '../i18n/words.ts';
import { PRESTASHOP_WORDING } from './prestashop/wording.ts';
import { SHOPIFY_WORDING } from './shopify/wording.ts';
import { WOOCOMMERCE_WORDING } from './woocommerce/wording.ts';

/**
 * Each platform's wording table, for the i18n module: the registry's `wording`, kept in this leaf
 * list because the registry's platforms reach the account area's pages (a cycle through
 * src/i18n/account.ts otherwise). The conformance suite checks it lists every registered platform's.
 */
export const CONNECTOR_WORDINGS = [SHOPIFY_WORDING, WOOCOMMERCE_WORDING, PRESTASHOP_WORDING] as const;

type Tables = (typeof CONNECTOR_WORDINGS)[number]['account'];
type Joined<U> = (U extends unknown ? (table: U) => void : never) extends (table: infer J) => void
  ? J
  : never;

/** Every platform's account-area words in one table, their keys kept for the type checker. */
export const CONNECTOR_WORDS = Object.assign(
  {},
  ...CONNECTOR_WORDINGS.map((w) => w.account),
) as Joined<Tables>;

const fieldMessages = (w: ConnectorWording) => w.fieldMessagesFr ?? {};
const patterns = (w: ConnectorWording) => w.frPatterns ?? [];

/** The platforms' field messages in French, by their English sentence. */
export const CONNECTOR_FIELD_MESSAGES_FR: Record<string, string> = Object.assign(
  {},
  ...CONNECTOR_WORDINGS.map(fieldMessages),
);
/** Those that carry a value. */
export const CONNECTOR_FR_PATTERNS = CONNECTOR_WORDINGS.flatMap(patterns);
