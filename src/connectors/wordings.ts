import { PRESTASHOP_WORDING } from './prestashop/wording.ts';
import { SHOPIFY_WORDING } from './shopify/wording.ts';
import { WOOCOMMERCE_WORDING } from './woocommerce/wording.ts';

/**
 * Each platform's wording table (the registry's `wording`), for the account area that shows them
 * (src/http/account/words.ts): kept in this leaf list because the registry's platforms reach the
 * account area's pages, which would close a cycle. The i18n module knows no connector: the account
 * area gives these to it. test/connector-lists.test.ts checks this lists every registered
 * platform's.
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
