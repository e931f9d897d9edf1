import { createHash } from 'node:crypto';
import {
  type IDataObject,
  type IExecuteFunctions,
  type IHookFunctions,
  type IHttpRequestMethods,
  type IN8nHttpFullResponse,
  type JsonObject,
  NodeApiError,
} from 'n8n-workflow';
import { PRODUCTION_BASE_URL } from '../credentials/LivraisonDlvApi.credentials';

export const CREDENTIALS = 'livraisonDlvApi';

type Caller = IExecuteFunctions | IHookFunctions;

export interface ApiRequest {
  method: IHttpRequestMethods;
  path: string;
  body?: IDataObject;
  qs?: IDataObject;
  headers?: IDataObject;
  /** Answer null instead of failing on 404 (a subscription or order that does not exist). */
  allowNotFound?: boolean;
}

/**
 * One call to the API with the node's credentials. Status errors are handled here rather than by
 * n8n's generic ones, so the node shows the API's own explanation: our error body is
 * `{ok: false, error: "code", message, details?}`.
 */
export async function apiRequest(this: Caller, request: ApiRequest): Promise<IDataObject | null> {
  const credentials = await this.getCredentials<{ baseUrl?: string }>(CREDENTIALS);
  const base = (credentials.baseUrl?.trim() || PRODUCTION_BASE_URL).replace(/\/+$/, '');
  const response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIALS, {
    method: request.method,
    url: `${base}${request.path}`,
    body: request.body,
    qs: request.qs,
    headers: { accept: 'application/json', ...request.headers },
    json: true,
    returnFullResponse: true,
    ignoreHttpStatusErrors: true,
  })) as IN8nHttpFullResponse;
  if (response.statusCode === 404 && request.allowNotFound) return null;
  if (response.statusCode >= 400) {
    const body = (
      typeof response.body === 'object' && response.body !== null ? response.body : {}
    ) as IDataObject;
    const code = typeof body.error === 'string' ? body.error : `http_${response.statusCode}`;
    const details = Array.isArray(body.details)
      ? (body.details as IDataObject[]).map((d) => `${d.field}: ${d.message}`).join('; ')
      : undefined;
    throw new NodeApiError(this.getNode(), body as JsonObject, {
      message: `${code}: ${String(body.message ?? `HTTP ${response.statusCode}`)}`,
      description: details,
      httpCode: String(response.statusCode),
    });
  }
  return response.body as IDataObject;
}

/**
 * The Idempotency-Key of a "create order" item: a hash of its fields sorted by name. n8n runs a
 * node again on "Retry On Fail" or when an execution is retried, possibly after the API already
 * created the order (a timeout on the way back); the same fields give the same key, so the API
 * returns the order it created instead of booking a second courier. Keys last 24 h per brand;
 * give distinct orders a distinct `reference`, or set the key explicitly.
 */
export function idempotencyKeyFor(fields: IDataObject): string {
  const canonical = JSON.stringify(
    Object.keys(fields)
      .sort()
      .map((key) => [key, fields[key]]),
  );
  return `n8n-${createHash('sha256').update(canonical).digest('hex')}`;
}

/** Fields left empty in the node's form are not sent: the API refuses unknown or blank values. */
export function filled(fields: IDataObject): IDataObject {
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  );
}
