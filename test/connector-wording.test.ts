import { describe, expect, it } from 'vitest';
import { CONNECTORS } from '../src/connectors/registry.ts';
import { CONNECTOR_WORDINGS } from '../src/connectors/wordings.ts';
import { translate } from '../src/i18n/account.ts';

// The i18n module takes the platforms' words from a leaf list (the registry would close a cycle
// through the account pages): this keeps that list and the registry the same.
describe('connector wording', () => {
  it('lists the wording table of every registered platform, and no other', () => {
    expect(new Set(CONNECTOR_WORDINGS)).toEqual(new Set(CONNECTORS.map((c) => c.wording)));
    expect(CONNECTOR_WORDINGS).toHaveLength(CONNECTORS.length);
  });

  it('gives every word of a platform to the account area, in both languages', () => {
    for (const connector of CONNECTORS) {
      for (const [key, words] of Object.entries(connector.wording.account)) {
        // Each placeholder filled with itself, so the text reads back as it is written.
        const same = Object.fromEntries(
          [...`${words.en}${words.fr}`.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], m[0]]),
        );
        expect(translate('en')(key, same)).toBe(words.en);
        expect(translate('fr')(key, same)).toBe(words.fr);
      }
    }
  });
});
