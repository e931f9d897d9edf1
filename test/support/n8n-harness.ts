import type {
  ICredentialType,
  IDataObject,
  IExecuteFunctions,
  IHookFunctions,
  IHttpRequestOptions,
  IN8nHttpFullResponse,
  INode,
  INodeExecutionData,
  IWebhookFunctions,
} from 'n8n-workflow';
import { LivraisonDlvApi } from '../../connectors/n8n/credentials/LivraisonDlvApi.credentials.ts';

/**
 * The parts of n8n's node execution contexts our nodes use, implemented as n8n 1.x does them
 * (packages/core, "execution-engine/node-execution-context"): credentials with their generic
 * `authenticate` applied to each request, `httpRequest` options (qs, json, returnFullResponse,
 * ignoreHttpStatusErrors), static data, node parameters, and for webhooks the raw request.
 * n8n itself needs a newer Node than these machines run; the contexts are typed with
 * n8n-workflow's interfaces, so a method the nodes call but the harness lacks fails to compile.
 */

export interface Credentials {
  apiKey: string;
  baseUrl: string;
}

const credentialType: ICredentialType = new LivraisonDlvApi();

/** n8n resolves `={{$credentials.x}}` expressions in a credential's `authenticate` and `test`. */
function resolveExpression(value: string, credentials: Credentials): string {
  if (!value.startsWith('=')) return value;
  return value
    .slice(1)
    .replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_, key: string) =>
      String(credentials[key as keyof Credentials]),
    );
}

/** `helpers.httpRequest`: axios-like options over fetch; errors on >= 400 unless told not to. */
async function httpRequest(options: IHttpRequestOptions): Promise<unknown> {
  const url = new URL(options.baseURL ? `${options.baseURL.replace(/\/$/, '')}${options.url}` : options.url);
  for (const [key, value] of Object.entries(options.qs ?? {})) url.searchParams.set(key, String(value));
  const headers = Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k, String(v)]));
  const hasBody = options.body !== undefined && options.method !== 'GET' && options.method !== 'DELETE';
  if (hasBody) headers['content-type'] ??= 'application/json';
  const response = await fetch(url, {
    method: options.method ?? 'GET',
    headers,
    body: hasBody ? JSON.stringify(options.body) : undefined,
  });
  const text = await response.text();
  let body: unknown = text;
  if (options.json || response.headers.get('content-type')?.includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
  }
  if (response.status >= 400 && !options.ignoreHttpStatusErrors) {
    throw Object.assign(new Error(`Request failed with status code ${response.status}`), {
      response: { body },
    });
  }
  if (!options.returnFullResponse) return body;
  const full: IN8nHttpFullResponse = {
    body: body as IN8nHttpFullResponse['body'],
    headers: Object.fromEntries(response.headers),
    statusCode: response.status,
    statusMessage: response.statusText,
  };
  return full;
}

/** `helpers.httpRequestWithAuthentication` with our credential's generic `authenticate`. */
function withAuthentication(credentials: Credentials) {
  return async (type: string, options: IHttpRequestOptions) => {
    if (type !== credentialType.name) throw new Error(`unknown credentials ${type}`);
    const auth = credentialType.authenticate;
    if (!auth || typeof auth === 'function') throw new Error('expected generic authentication');
    const extraHeaders = Object.fromEntries(
      Object.entries(auth.properties.headers ?? {}).map(([k, v]) => [
        k,
        resolveExpression(String(v), credentials),
      ]),
    );
    return httpRequest({ ...options, headers: { ...options.headers, ...extraHeaders } });
  };
}

/** The credential's "Test" button: its `test.request`, authenticated, must answer 2xx. */
export async function testCredentials(credentials: Credentials): Promise<number> {
  const request = credentialType.test!.request;
  const response = (await withAuthentication(credentials)(credentialType.name, {
    method: request.method ?? 'GET',
    baseURL: resolveExpression(String(request.baseURL), credentials),
    url: String(request.url),
    returnFullResponse: true,
    ignoreHttpStatusErrors: true,
  })) as IN8nHttpFullResponse;
  return response.statusCode;
}

function node(type: string, parameters: IDataObject): INode {
  return { id: 'node-1', name: 'Livraison DLV', type, typeVersion: 1, position: [0, 0], parameters } as INode;
}

function parameterGetter(parameters: IDataObject) {
  return (name: string, ...rest: unknown[]) => {
    // getNodeParameter(name, fallback) for hooks and webhooks, (name, itemIndex, fallback) for execute.
    const fallback = rest.length >= 2 ? rest[1] : rest[0];
    return parameters[name] ?? fallback;
  };
}

type HookSubset = Pick<
  IHookFunctions,
  | 'getNodeParameter'
  | 'getNodeWebhookUrl'
  | 'getWorkflowStaticData'
  | 'getCredentials'
  | 'getNode'
  | 'getWorkflow'
> & { helpers: Pick<IHookFunctions['helpers'], 'httpRequestWithAuthentication'> };

/** One trigger node in one workflow: its parameters, webhook URL and static data persist across calls. */
export function triggerNode(options: {
  credentials: Credentials;
  parameters: IDataObject;
  webhookUrl: string;
}) {
  const staticData: IDataObject = {};
  const common = {
    getNodeParameter: parameterGetter(options.parameters),
    getWorkflowStaticData: () => staticData,
    getCredentials: async <T extends object>() => options.credentials as unknown as T,
    getNode: () => node('n8n-nodes-livraison-dlv.livraisonDlvTrigger', options.parameters),
    getWorkflow: () => ({ id: 'wf-1', name: 'Orders to Slack', active: true }),
    getNodeWebhookUrl: () => options.webhookUrl,
  };
  const hook: HookSubset = {
    ...(common as unknown as HookSubset),
    helpers: { httpRequestWithAuthentication: withAuthentication(options.credentials) },
  };

  /** The request n8n's webhook server received, and what the node answered on it. */
  function webhookContext(request: { headers: Record<string, string>; body: string }) {
    const response: { status?: number; body?: unknown } = {};
    const res = {
      status(code: number) {
        response.status = code;
        return res;
      },
      json(body: unknown) {
        response.body = body;
        return res;
      },
      send(body: unknown) {
        response.body = body;
        return res;
      },
      end() {
        return res;
      },
    };
    const req = {
      headers: request.headers,
      body: JSON.parse(request.body),
      rawBody: Buffer.from(request.body),
    };
    type WebhookSubset = Pick<
      IWebhookFunctions,
      | 'getNodeParameter'
      | 'getWorkflowStaticData'
      | 'getHeaderData'
      | 'getRequestObject'
      | 'getResponseObject'
    >;
    const context: WebhookSubset = {
      ...(common as unknown as WebhookSubset),
      getHeaderData: () => request.headers,
      getRequestObject: () => req as unknown as ReturnType<IWebhookFunctions['getRequestObject']>,
      getResponseObject: () => res as unknown as ReturnType<IWebhookFunctions['getResponseObject']>,
    };
    return { context: context as IWebhookFunctions, response };
  }

  return { staticData, hook: hook as IHookFunctions, webhookContext };
}

type ExecuteSubset = Pick<
  IExecuteFunctions,
  'getInputData' | 'getNodeParameter' | 'getCredentials' | 'getNode' | 'continueOnFail'
> & { helpers: Pick<IExecuteFunctions['helpers'], 'httpRequestWithAuthentication'> };

/** An action node run on `items`, each with the same parameters (as n8n runs a node). */
export function actionContext(options: {
  credentials: Credentials;
  parameters: IDataObject;
  items?: INodeExecutionData[];
  continueOnFail?: boolean;
}): IExecuteFunctions {
  const context: ExecuteSubset = {
    getInputData: () => options.items ?? [{ json: {} }],
    getNodeParameter: parameterGetter(options.parameters) as ExecuteSubset['getNodeParameter'],
    getCredentials: async <T extends object>() => options.credentials as unknown as T,
    getNode: () => node('n8n-nodes-livraison-dlv.livraisonDlv', options.parameters),
    continueOnFail: () => options.continueOnFail ?? false,
    helpers: { httpRequestWithAuthentication: withAuthentication(options.credentials) },
  };
  return context as unknown as IExecuteFunctions;
}
