import type { OptOutsByKey } from './notification-ports.ts';
import type { Channel } from './ports.ts';
import type { UnsubscribeTokens } from './unsubscribe-token.ts';

export interface Unsubscribes {
  /** What an unsubscribe link names (its channel) and whether that address already opted out; null: not a link of ours. */
  state(token: string): Promise<{ channel: Channel; optedOut: boolean } | null>;
  /**
   * Opts the link's address out at once, for every brand (RFC 8058's one-click POST, or the page's
   * button); null when the token is not ours. Asking twice keeps the first request.
   */
  optOut(token: string, source: 'link' | 'one_click'): Promise<Channel | null>;
  /** Whether the token is one of our links (its signature holds): no database read. */
  isOurs(token: string): Promise<boolean>;
}

/** The unsubscribe links of the recipients' e-mails (decision 0007): no row behind a link, only its digest. */
export function unsubscribes(deps: {
  tokens: Pick<UnsubscribeTokens, 'read'>;
  optOuts: OptOutsByKey;
}): Unsubscribes {
  return {
    async state(token) {
      const target = await deps.tokens.read(token);
      if (!target) return null;
      return {
        channel: target.channel,
        optedOut: await deps.optOuts.isKeyOptedOut(target.channel, target.key),
      };
    },
    isOurs: async (token) => (await deps.tokens.read(token)) !== null,

    async optOut(token, source) {
      const target = await deps.tokens.read(token);
      if (!target) return null;
      await deps.optOuts.optOutKey(target.channel, target.key, source);
      return target.channel;
    },
  };
}
