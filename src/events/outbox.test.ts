import { describe, expect, it } from 'vitest';
import { outbox, type Subscriber } from './outbox.ts';

const at = new Date('2026-11-26T09:00:00Z');
const moved = (status: string) => () => ({ order: { status } }) as never;

describe('outbox: a subscriber that accepts only some events of a type', () => {
  const recipients: Subscriber = {
    name: 'recipients',
    job: 'notify',
    listens: () => true,
    accepts: (event) => (event.data as { order: { status: string } }).order.status === 'delivered',
  };
  const webhooks: Subscriber = { name: 'webhooks', job: 'fan_out', listens: () => true };

  it('writes nothing when it is the only listener and declines the event', async () => {
    const box = outbox([recipients]);
    expect(await box.event('brd_1', 'order.status_changed', at, moved('picked_up'))).toBeNull();
    expect((await box.event('brd_1', 'order.status_changed', at, moved('delivered')))?.jobs).toEqual([
      'notify',
    ]);
  });

  it('keeps the event for the others, without its job', async () => {
    const box = outbox([webhooks, recipients]);
    expect((await box.event('brd_1', 'order.status_changed', at, moved('picked_up')))?.jobs).toEqual([
      'fan_out',
    ]);
    expect((await box.event('brd_1', 'order.status_changed', at, moved('delivered')))?.jobs).toEqual([
      'fan_out',
      'notify',
    ]);
  });
});
