import { describe, expect, it } from 'vitest';
import { recipientNotifications } from './notification-service.ts';
import { DEFAULT_RECIPIENT_SETTINGS, type RecipientSettings } from './ports.ts';

/** The service with settings kept in a map (as another process would change them) and a clock in ms. */
function withSettings() {
  const stored = new Map<string, RecipientSettings>();
  let reads = 0;
  let ms = 0;
  const service = recipientNotifications({
    settings: {
      get: async (brandId) => {
        reads++;
        return stored.get(brandId) ?? { brandId, ...DEFAULT_RECIPIENT_SETTINGS };
      },
      logo: async () => null,
    },
    now: () => ms,
    // The rest is not reached by `listens`.
    store: null as never,
    audit: null as never,
    facts: null as never,
    optOuts: null as never,
    mailer: null as never,
    sms: null as never,
    tokens: null as never,
    baseUrl: 'https://dlv.example.com',
    carrierName: 'Livraison DLV',
    smsFrom: null,
  });
  return {
    service,
    set: (brandId: string, changes: Partial<RecipientSettings>) =>
      stored.set(brandId, { brandId, ...DEFAULT_RECIPIENT_SETTINGS, ...changes }),
    advance: (by: number) => {
      ms += by;
    },
    reads: () => reads,
  };
}

describe('listens (the outbox subscriber’s question)', () => {
  it('by default: order moves yes, creations no (the confirmation is off), other events never', async () => {
    const { service } = withSettings();
    expect(await service.listens('brd_a', 'order.status_changed')).toBe(true);
    expect(await service.listens('brd_a', 'order.created')).toBe(false);
    expect(await service.listens('brd_a', 'invoice.issued')).toBe(false);
    expect(await service.listens('brd_a', 'order.delivered')).toBe(false);
  });

  it('no when every step is off or the shop tells its customers; creations when confirmed is on', async () => {
    const { service, set } = withSettings();
    set('brd_off', { emailSteps: [], smsSteps: [] });
    set('brd_shop', { shopNotifies: true });
    set('brd_confirm', { emailSteps: [], smsSteps: ['confirmed'] });
    expect(await service.listens('brd_off', 'order.status_changed')).toBe(false);
    expect(await service.listens('brd_shop', 'order.status_changed')).toBe(false);
    expect(await service.listens('brd_confirm', 'order.created')).toBe(true);
  });

  it('is cached for at most 10 s; forget() asks afresh at once', async () => {
    const { service, set, advance, reads } = withSettings();
    expect(await service.listens('brd_b', 'order.status_changed')).toBe(true);
    set('brd_b', { emailSteps: [], smsSteps: [] });
    advance(9_999);
    expect(await service.listens('brd_b', 'order.status_changed')).toBe(true);
    expect(reads()).toBe(1);
    advance(1);
    expect(await service.listens('brd_b', 'order.status_changed')).toBe(false);
    set('brd_b', {});
    service.forget('brd_b');
    expect(await service.listens('brd_b', 'order.status_changed')).toBe(true);
    expect(reads()).toBe(3);
  });
});
