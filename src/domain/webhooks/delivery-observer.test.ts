import { describe, expect, it } from 'vitest';
import { reportAttempt } from './delivery-observer.ts';
import type { DeliveryFailureReason } from './ports.ts';

describe('reportAttempt', () => {
  const eventCreatedAt = new Date('2026-01-01T10:00:00Z');
  const finishedAt = new Date('2026-01-01T10:00:02.5Z');

  function told(result: { ok: boolean; status: number | null; error: string | null }, outcome = 'failed') {
    const calls: Array<['delivered', number] | ['failed', DeliveryFailureReason, boolean]> = [];
    reportAttempt(
      {
        delivered: (lagMs) => calls.push(['delivered', lagMs]),
        failed: (reason, final) => calls.push(['failed', reason, final]),
      },
      { result, outcome: outcome as 'succeeded' | 'failed' | 'exhausted', eventCreatedAt, finishedAt },
    );
    return calls;
  }

  it('tells a delivery with its lag from the event, and a failure with its reason and whether it was the last', () => {
    expect(told({ ok: true, status: 204, error: null }, 'succeeded')).toEqual([['delivered', 2500]]);
    expect(told({ ok: false, status: 503, error: null })).toEqual([['failed', 'http_5xx', false]]);
    expect(told({ ok: false, status: 410, error: null }, 'exhausted')).toEqual([
      ['failed', 'http_4xx', true],
    ]);
    expect(told({ ok: false, status: 302, error: null })).toEqual([['failed', 'http_other', false]]);
    expect(told({ ok: false, status: null, error: 'timeout after 15000 ms' })).toEqual([
      ['failed', 'timeout', false],
    ]);
    expect(told({ ok: false, status: null, error: 'connect ECONNREFUSED' })).toEqual([
      ['failed', 'network', false],
    ]);
  });

  it('does nothing without an observer', () => {
    expect(() =>
      reportAttempt(undefined, {
        result: { ok: true, status: 200, error: null },
        outcome: 'succeeded',
        eventCreatedAt,
        finishedAt,
      }),
    ).not.toThrow();
  });
});
