'use strict';

const { PRODUCTION_BASE_URL, apiRequest } = require('./lib/api');

/**
 * API-key authentication: the key is sent as a bearer token by the app's `beforeRequest`. The
 * base URL is a field so a staging or local API can be connected; it defaults to production.
 */
module.exports = {
  type: 'custom',
  fields: [
    {
      key: 'api_key',
      label: 'API key',
      type: 'password',
      required: true,
      helpText:
        'A key of your brand (`dlv_…`), from your account area → API keys. Give it the `orders:write` ' +
        'scope to create orders, and `webhooks:write` for the instant triggers.',
    },
    {
      key: 'base_url',
      label: 'API base URL',
      type: 'string',
      required: false,
      default: PRODUCTION_BASE_URL,
      helpText: `Leave the default (${PRODUCTION_BASE_URL}) unless told to use another environment.`,
    },
  ],
  // GET /me answers for any valid key, whatever its scopes: the right check for "is this key good".
  test: (z, bundle) => apiRequest(z, bundle, { method: 'GET', path: '/me' }),
  // bundle.inputData is what `test` returned.
  connectionLabel: (_z, bundle) => {
    const me = bundle.inputData || {};
    return me.brand?.name ? me.brand.name : 'Livraison DLV';
  },
};
