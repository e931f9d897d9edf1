import type {
  IAuthenticateGeneric,
  ICredentialTestRequest,
  ICredentialType,
  INodeProperties,
} from 'n8n-workflow';

export const PRODUCTION_BASE_URL = 'https://api.livraison-dlv.fr/public/v1';

/** A brand's API key, sent as a bearer token; the base URL is only changed for staging or tests. */
export class LivraisonDlvApi implements ICredentialType {
  name = 'livraisonDlvApi';

  displayName = 'Livraison DLV API';

  documentationUrl = 'https://api.livraison-dlv.fr/public/v1/docs';

  properties: INodeProperties[] = [
    {
      displayName: 'API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
      description:
        'A key of your brand (dlv_…) from the account area. Scopes: orders:read / orders:write for the actions, webhooks:write for the trigger.',
    },
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: PRODUCTION_BASE_URL,
      description: 'Leave the default unless told to use another environment',
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
  };

  // GET /me answers for any valid key whatever its scopes: n8n's "Test" button.
  test: ICredentialTestRequest = {
    request: { baseURL: '={{$credentials.baseUrl}}', url: '/me' },
  };
}
