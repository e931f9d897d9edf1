import { describe, expect, it } from 'vitest';
import { CONNECTOR_CLIS } from '../src/connectors/commands.ts';
import { CONNECTORS } from '../src/connectors/registry.ts';
import { CONNECTOR_WORDINGS } from '../src/connectors/wordings.ts';
import { translate } from '../src/http/account/words.ts';

// The i18n module takes the platforms' words from a leaf list (the registry would close a cycle
// through the account pages): this keeps that list and the registry the same.
describe('the connector lists beside the registry', () => {
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

  it('lists the commands of every registered platform, under its name and label', () => {
    expect(CONNECTOR_CLIS.map((c) => [c.platform, c.label])).toEqual(
      CONNECTORS.map((c) => [c.platform, c.label]),
    );
    for (const cli of CONNECTOR_CLIS)
      for (const spec of cli.commands) expect(spec.path.startsWith(`connectors ${cli.platform} `)).toBe(true);
  });
});
