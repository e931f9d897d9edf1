import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { buildEventBody, parseEventTypes, WEBHOOK_EVENT_TYPES } from './events.ts';

describe('parseEventTypes', () => {
  it.each([undefined, '', ' , ', []])('treats %j as every event', (input) => {
    expect(parseEventTypes(input)).toEqual([...WEBHOOK_EVENT_TYPES]);
  });

  it('reads a comma-separated list, trimmed, deduplicated and in canonical order', () => {
    expect(parseEventTypes(' invoice.issued ,order.created,invoice.issued')).toEqual([
      'order.created',
      'invoice.issued',
    ]);
  });

  it('reads an array', () => {
    expect(parseEventTypes(['order.status_changed'])).toEqual(['order.status_changed']);
  });

  it('rejects unknown types as an invalid events field', () => {
    let caught: unknown;
    try {
      parseEventTypes('order.created,order.deleted,foo');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    const err = caught as AppError;
    expect(err.code).toBe('invalid_request');
    expect(err.details?.[0]?.field).toBe('events');
    expect(err.message).toContain('"order.deleted", "foo"');
    expect(err.message).toContain(
      'order.created, order.status_changed, order.delivered, order.delivery_failed',
    );
  });

  it('is case-sensitive, as event types are identifiers', () => {
    expect(() => parseEventTypes(['Order.Created'])).toThrow(AppError);
  });
});

describe('buildEventBody', () => {
  it('has exactly type, id, created_at and data', () => {
    const body = buildEventBody({
      type: 'order.status_changed',
      id: 'msg_0123456789abcdef',
      createdAt: new Date('2026-02-03T04:05:06.007Z'),
      data: { order: { trackingRef: 'DLV-7K3M9Q2XHP', status: 'delivered' }, previous_status: 'in_transit' },
    });
    expect(body).toBe(
      '{"type":"order.status_changed","id":"msg_0123456789abcdef","created_at":"2026-02-03T04:05:06.007Z",' +
        '"data":{"order":{"trackingRef":"DLV-7K3M9Q2XHP","status":"delivered"},"previous_status":"in_transit"}}',
    );
    expect(Object.keys(JSON.parse(body))).toEqual(['type', 'id', 'created_at', 'data']);
  });
});
