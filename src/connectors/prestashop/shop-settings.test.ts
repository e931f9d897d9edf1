import { describe, expect, it } from 'vitest';
import { listOf, oneOf } from './shop-settings.ts';

describe('oneOf', () => {
  it('reads a display=[…] read by id as PrestaShop 8 answers it: a one-item list under the plural name', () => {
    // GET /api/orders/42?display=[id,current_state]&output_format=JSON, as a PrestaShop 8 shop sends it.
    const documented = JSON.parse('{"orders":[{"id":42,"current_state":"18"}]}');
    expect(oneOf(documented, 'orders', 'order')).toEqual({ id: 42, current_state: '18' });
  });

  it('reads the whole object under the singular name, and nothing from an empty or odd answer', () => {
    expect(oneOf({ order: { id: 42, current_state: '5' } }, 'orders', 'order')).toMatchObject({
      current_state: '5',
    });
    expect(oneOf([], 'orders', 'order')).toBeNull();
    expect(oneOf({ orders: [] }, 'orders', 'order')).toBeNull();
    expect(oneOf(null, 'orders', 'order')).toBeNull();
    expect(oneOf({ order: [1] }, 'orders', 'order')).toBeNull();
    expect(listOf([], 'orders')).toEqual([]);
  });
});
