import { describe, expect, it } from 'vitest';
import { missingPermissions } from './key-check.ts';
import { prestashopWebservice } from './webservice-client.ts';

/** The Webservice's root as PrestaShop 8 lists it for a key (GET /api/, XML). */
const ROOT = `<?xml version="1.0" encoding="UTF-8"?>
<prestashop xmlns:xlink="http://www.w3.org/1999/xlink">
<api shopName="Boutique">
<carriers xlink:href="https://shop.example.fr/api/carriers" get="true" put="false" post="false" patch="false" delete="false" head="true">
<description xlink:href="https://shop.example.fr/api/carriers" get="true" put="false" post="false" patch="false" delete="false" head="true">The Carriers that perform deliveries</description>
<schema xlink:href="https://shop.example.fr/api/carriers?schema=blank" type="blank"/>
</carriers>
<order_carriers get="true" put="true" post="false" xlink:href="https://shop.example.fr/api/order_carriers">
</order_carriers>
</api>
</prestashop>`;

describe('the key’s permissions', () => {
  it('are read from the Webservice’s root in XML, and the missing ones named', async () => {
    const asked: string[] = [];
    const ws = prestashopWebservice({
      request: async (request) => {
        asked.push(request.url);
        return { status: 200, retryAfter: null, text: ROOT };
      },
    });
    const granted = await ws.permissions('https://shop.example.fr', 'K'.repeat(32));
    expect(asked).toEqual(['https://shop.example.fr/api/']);
    expect(granted.get('carriers')).toEqual(new Set(['GET', 'HEAD']));
    expect(granted.get('order_carriers')).toEqual(new Set(['GET', 'PUT']));
    expect(missingPermissions(granted)).toEqual([
      'GET orders',
      'GET addresses',
      'GET customers',
      'GET countries',
      'GET currencies',
      'GET products',
      'GET order_states',
      'GET configurations',
      'POST order_histories',
    ]);
  });
});
