import { describe, expect, it } from 'vitest';
import type { WebhookDeliveryStore } from './ports.ts';
import { webhookDeliveryService } from './webhook-delivery-service.ts';

/** A store whose fan-out statements wait until the test answers them. */
function waitingStore() {
  const statements: {
    eventIds: readonly string[];
    answer: (created: { id: string; eventId: string }[]) => void;
    fail: (err: Error) => void;
  }[] = [];
  const store = {
    fanOut: (eventIds: readonly string[]) =>
      new Promise<{ id: string; eventId: string }[]>((answer, fail) => {
        statements.push({ eventIds, answer, fail });
      }),
  } as unknown as WebhookDeliveryStore;
  const service = webhookDeliveryService({
    stores: { webhookDeliveries: store },
    clock: () => new Date('2026-11-29T10:00:00Z'),
    send: () => Promise.reject(new Error('no sending here')),
  });
  return { service, statements };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('webhookDeliveryService.fanOut', () => {
  it('runs one statement at a time: the jobs that ask meanwhile go together in the next, each told its own deliveries', async () => {
    const { service, statements } = waitingStore();
    const first = [service.fanOut('e1'), service.fanOut('e2')];
    await turn();
    expect(statements.map((s) => s.eventIds)).toEqual([['e1', 'e2']]);

    // Asked while the first statement runs: no second statement beside it.
    const second = [service.fanOut('e3'), service.fanOut('e4')];
    await turn();
    const third = service.fanOut('e5');
    await turn();
    expect(statements).toHaveLength(1);

    statements[0]!.answer([
      { id: 'd1', eventId: 'e1' },
      { id: 'd2', eventId: 'e1' },
    ]);
    expect(await Promise.all(first)).toEqual([['d1', 'd2'], []]);
    await turn();
    expect(statements.map((s) => s.eventIds)).toEqual([
      ['e1', 'e2'],
      ['e3', 'e4', 'e5'],
    ]);

    // A failed statement fails the jobs it carried (the queue retries them), and the next ones still run.
    statements[1]!.fail(new Error('connection lost'));
    await expect(Promise.all([...second, third])).rejects.toThrow('connection lost');
    const fourth = service.fanOut('e6');
    await turn();
    expect(statements.map((s) => s.eventIds)).toHaveLength(3);
    statements[2]!.answer([{ id: 'd6', eventId: 'e6' }]);
    expect(await fourth).toEqual(['d6']);
  });
});
