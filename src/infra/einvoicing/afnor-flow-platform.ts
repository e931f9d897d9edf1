import type { AfnorPlatformConfig } from '../../config.ts';
import {
  type EInvoicePlatform,
  EInvoicePlatformError,
  type OutgoingEInvoice,
  type PaymentRecord,
  type StatusUpdate,
  type SubmissionReceipt,
} from '../../domain/einvoicing/ports.ts';
import { systemClock } from '../../domain/shared/clock.ts';
import { paymentCdar, readLifecycleCdar } from './cdar.ts';

/**
 * An approved platform through the standard API of AFNOR XP Z12-013 (annex A, the Flow Service),
 * which every French platform implements:
 * - OAuth 2.0 client credentials at the platform's token endpoint; the bearer token is kept until
 *   shortly before it expires, and fetched again once when a call answers 401;
 * - `POST /v1/flows` (multipart: `flowInfo`, JSON, and `file`) submits a flow, answered 202 with
 *   the flow (`flowId`, `acknowledgement.status`: Pending, then Ok or Error with its `details`);
 * - `POST /v1/flows/search` (`where`: `trackingId`, `updatedAfter`, `flowDirection`, `flowType`…)
 *   finds flows: a submission is looked for by its tracking id (the document's number) before it is
 *   sent, so a retry after an outage or a crash never sends a document twice;
 * - `GET /v1/flows/{flowId}?docType=Original` reads an incoming flow: the life-cycle messages (CDAR)
 *   about our invoices, with their status and reason;
 * - errors are `{ errorCode, errorMessage }`; 429 and 503 may say Retry-After.
 */
type Fetch = typeof fetch;

const TIMEOUT_MS = 30_000;
/** The search page size every platform must support (100). */
const PAGE = 100;
/** A token is renewed this long before the platform said it expires. */
const TOKEN_MARGIN_MS = 30_000;
const EPOCH = '1970-01-01T00:00:00.000Z';
const THROTTLE_RETRIES = 3;
const MAX_THROTTLE_WAIT_MS = 5000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const retryAfterMs = (header: string | null) =>
  header && /^\d+$/.test(header) ? Number(header) * 1000 : undefined;

interface Flow {
  flowId: string;
  trackingId?: string;
  name?: string;
  flowSyntax?: string;
  flowType?: string;
  flowDirection?: 'In' | 'Out';
  submittedAt?: string;
  updatedAt?: string;
  acknowledgement?: {
    status?: 'Pending' | 'Ok' | 'Error';
    details?: { item?: string; level?: string; reasonCode?: string; reasonMessage?: string }[];
  };
}

export function afnorFlowPlatform(
  config: AfnorPlatformConfig,
  options: { fetch?: Fetch; clock?: () => Date } = {},
): EInvoicePlatform {
  const doFetch = options.fetch ?? fetch;
  const clock = options.clock ?? systemClock;
  let token: { value: string; expiresAt: number } | null = null;

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await doFetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (err) {
      throw new EInvoicePlatformError(
        'retry_later',
        `the platform did not answer: ${(err as Error).message}`,
      );
    }
  }

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > clock().getTime() + TOKEN_MARGIN_MS) return token.value;
    const response = await send(config.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: config.clientId,
        client_secret: config.clientSecret,
      }),
    });
    if (!response.ok) throw await failure(response, 'the token endpoint');
    const body = (await response.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token)
      throw new EInvoicePlatformError('retry_later', 'the token endpoint gave no access_token');
    token = { value: body.access_token, expiresAt: clock().getTime() + (body.expires_in ?? 300) * 1000 };
    return token.value;
  }

  /**
   * One authenticated call. A 401 fetches a new token and tries once more (it may have been revoked);
   * a 429 (throttled: the request was not processed, RFC 6585) is tried again after the Retry-After
   * the platform asks, when short, up to THROTTLE_RETRIES times; anything longer, and every outage
   * (5xx), is the job's to retry later, which looks for the document before sending it again.
   */
  async function call(path: string, init: RequestInit): Promise<Response> {
    let renewed = false;
    for (let throttled = 0; ; ) {
      const response = await send(`${config.flowUrl}${path}`, {
        ...init,
        headers: {
          accept: 'application/json',
          ...init.headers,
          authorization: `Bearer ${await accessToken()}`,
        },
      });
      if (response.status === 401 && !renewed) {
        renewed = true;
        token = null;
        continue;
      }
      if (response.status === 429 && throttled < THROTTLE_RETRIES) {
        const wait = retryAfterMs(response.headers.get('retry-after'));
        if (wait !== undefined && wait <= MAX_THROTTLE_WAIT_MS) {
          throttled++;
          await response.body?.cancel();
          await sleep(wait);
          continue;
        }
      }
      if (!response.ok) throw await failure(response, `${init.method ?? 'GET'} ${path}`);
      return response;
    }
  }

  async function search(where: Record<string, unknown>): Promise<Flow[]> {
    const response = await call('/v1/flows/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ where, limit: PAGE }),
    });
    if (response.status === 204) return [];
    return ((await response.json()) as { results?: Flow[] }).results ?? [];
  }

  async function submitFlow(
    info: { trackingId: string; name: string; flowSyntax: string; processingRule: string; sha256?: string },
    file: Blob,
  ): Promise<Flow> {
    const form = new FormData();
    form.append('flowInfo', new Blob([JSON.stringify(info)], { type: 'application/json' }));
    form.append('file', file, info.name);
    return (await (await call('/v1/flows', { method: 'POST', body: form })).json()) as Flow;
  }

  const rejection = (flow: Flow) =>
    (flow.acknowledgement?.details ?? [])
      .map((d) => `${d.reasonMessage ?? 'rejected'}${d.reasonCode ? ` (${d.reasonCode})` : ''}`)
      .join('; ') || 'rejected by the platform';

  const receipt = (flow: Flow, alreadySubmitted: boolean): SubmissionReceipt => {
    const error = flow.acknowledgement?.status === 'Error';
    return {
      flowId: flow.flowId,
      at: new Date(flow.submittedAt ?? clock().toISOString()),
      alreadySubmitted,
      status: error ? 'rejected' : 'deposited',
      reason: error ? rejection(flow) : null,
    };
  };

  return {
    name: 'afnor',

    async submit(document: OutgoingEInvoice) {
      const known = (await search({ trackingId: document.trackingId, flowDirection: ['Out'] })).find(
        (flow) => flow.trackingId === document.trackingId,
      );
      if (known) return receipt(known, true);
      const flow = await submitFlow(
        {
          trackingId: document.trackingId,
          name: document.fileName,
          flowSyntax: 'Factur-X',
          processingRule: 'B2B',
          sha256: document.sha256,
        },
        new Blob([new Uint8Array(document.pdf)], { type: 'application/pdf' }),
      );
      return receipt(flow, false);
    },

    async reportPayment(record: PaymentRecord) {
      const trackingId = `${record.invoiceNumber}-212`;
      const known = (await search({ trackingId, flowDirection: ['Out'] })).find(
        (f) => f.trackingId === trackingId,
      );
      if (known) return { flowId: known.flowId, at: new Date(known.submittedAt ?? clock().toISOString()) };
      const at = clock();
      const flow = await submitFlow(
        { trackingId, name: `${trackingId}.xml`, flowSyntax: 'CDAR', processingRule: 'B2B' },
        new Blob([paymentCdar(record, at)], { type: 'application/xml' }),
      );
      return { flowId: flow.flowId, at: new Date(flow.submittedAt ?? at.toISOString()) };
    },

    async updates(cursor: string | null) {
      let after = cursor ?? EPOCH;
      const updates: StatusUpdate[] = [];
      // Pages by update time: the next page starts after the last one's latest flow.
      for (;;) {
        const flows = await search({ updatedAfter: after });
        for (const flow of flows) {
          const update = await statusOf(flow);
          if (update) updates.push(update);
        }
        const latest = flows.map((f) => f.updatedAt ?? '').reduce((a, b) => (b > a ? b : a), after);
        if (flows.length < PAGE || latest === after) return { updates, cursor: latest };
        after = latest;
      }
    },
  };

  /** A flow's news about one of our documents, if any. */
  async function statusOf(flow: Flow): Promise<StatusUpdate | null> {
    const at = new Date(flow.updatedAt ?? clock().toISOString());
    // Our own submissions: the platform's verdict on the document itself.
    if (flow.flowDirection === 'Out' && flow.flowSyntax !== 'CDAR' && flow.trackingId) {
      if (flow.acknowledgement?.status !== 'Error') return null;
      return { trackingId: flow.trackingId, status: 'rejected', reason: rejection(flow), at };
    }
    // Life-cycle messages about the invoices we issued.
    if (flow.flowDirection === 'In' && flow.flowType === 'CustomerInvoiceLC') {
      const response = await call(`/v1/flows/${encodeURIComponent(flow.flowId)}?docType=Original`, {
        method: 'GET',
      });
      const message = readLifecycleCdar(await response.text());
      if (!message.status) return null;
      const label = message.label ? `${message.code} ${message.label}` : message.code;
      return {
        trackingId: message.invoiceNumber,
        status: message.status,
        reason: message.reason ? `${label}: ${message.reason}` : label,
        at: message.at ?? at,
      };
    }
    return null;
  }
}

/** The platform's error body (`errorCode`, `errorMessage`) as an error the job understands. */
async function failure(response: Response, what: string): Promise<EInvoicePlatformError> {
  let code: string | undefined;
  let message: string | undefined;
  try {
    const body = (await response.json()) as { errorCode?: string; errorMessage?: string };
    code = body.errorCode;
    message = body.errorMessage;
  } catch {
    // not JSON: the status says enough
  }
  const text = `${what} answered ${response.status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}`;
  const wait = retryAfterMs(response.headers.get('retry-after'));
  const transient =
    response.status === 429 || response.status >= 500 || response.status === 401 || response.status === 408;
  return new EInvoicePlatformError(transient ? 'retry_later' : 'refused', text, {
    status: response.status,
    ...(code ? { code } : {}),
    ...(wait !== undefined ? { retryAfterMs: wait } : {}),
  });
}
