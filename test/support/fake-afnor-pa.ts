import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { create } from 'xmlbuilder2';

/**
 * A faithful fake of an approved platform's AFNOR XP Z12-013 Flow Service (annex A) on 127.0.0.1,
 * written from the standard and the clients that implement it (akretion's pyfrctc, the
 * mcp-facture-electronique-fr client), for the AFNOR adapter's tests:
 * - `POST /oauth2/token`, OAuth 2.0 client credentials (form body, or HTTP Basic), answering
 *   `{ access_token, token_type, expires_in }`; a bad client is 401 `invalid_client`;
 * - `POST /afnor-flow/v1/flows` (multipart `flowInfo` JSON + `file`), 202 with the flow: the
 *   `flowInfo` checked (flowSyntax among CII, UBL, Factur-X, CDAR, FRR; a name; the sha256 when given
 *   must be the file's), 400 `{ errorCode, errorMessage }` otherwise; a Factur-X must be a PDF;
 * - `POST /afnor-flow/v1/flows/search` (`where`: trackingId, updatedAfter strictly, flowDirection,
 *   flowType; `limit`), 200 `{ results }`;
 * - `GET /afnor-flow/v1/flows/{flowId}?docType=Metadata|Original`;
 * - every call needs a live bearer token (401 `UNAUTHORIZED` otherwise, tokens expire);
 * - throttling (429 `TOO_MANY_REQUESTS` with Retry-After) and outages (503) on demand.
 * The platform's side of the life cycle is played by the test: `acknowledge` (Ok, or Error with
 * details: 213 Rejetée), and `lifecycle` (a CDAR from the buyer's side: 202 Reçue, 205 Approuvée,
 * 210 Refusée with its reason…, as an incoming `CustomerInvoiceLC` flow).
 */
export interface FakeFlow {
  flowId: string;
  trackingId: string | null;
  name: string;
  flowSyntax: string;
  flowType: string;
  flowDirection: 'In' | 'Out';
  processingRule: string | null;
  sha256: string;
  file: Buffer;
  submittedAt: string;
  updatedAt: string;
  acknowledgement: { status: 'Pending' | 'Ok' | 'Error'; details?: object[] };
}

const SYNTAXES = ['CII', 'UBL', 'Factur-X', 'CDAR', 'FRR'];
const RULES = [
  'B2B',
  'B2BInt',
  'B2C',
  'B2G',
  'B2GInt',
  'OutOfScope',
  'B2GOutOfScope',
  'ArchiveOnly',
  'NotApplicable',
];
const RAM = 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100';
const UDT = 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100';
const RSM = 'urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100';

const LABELS: Record<string, string> = {
  '200': 'Déposée',
  '202': 'Reçue',
  '203': 'Mise à disposition',
  '204': 'Prise en charge',
  '205': 'Approuvée',
  '207': 'En litige',
  '210': 'Refusée',
  '212': 'Encaissée',
  '213': 'Rejetée',
};

export async function startFakeAfnorPa(options: { tokenLifetimeSeconds?: number } = {}) {
  const clientId = `client-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(16).toString('hex');
  const tokens = new Map<string, number>();
  const flows: FakeFlow[] = [];
  const faults: { status: number; retryAfter?: string; body: object }[] = [];
  const requests: { method: string; path: string; status: number }[] = [];
  let clock = Date.now();
  const now = () => new Date(Math.max(Date.now(), ++clock)).toISOString();
  let hold: { resolve: () => void; stored: () => void } | null = null;
  let holdRequested: { onStored: () => void } | null = null;
  let answersToLose = 0;
  const submissionFaults: { status: number; body: object }[] = [];

  const json = (
    res: http.ServerResponse,
    status: number,
    body: object,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const error = (
    res: http.ServerResponse,
    status: number,
    errorCode: string,
    errorMessage: string,
    headers = {},
  ) => json(res, status, { errorCode, errorMessage }, headers);
  const metadata = ({ file: _file, sha256: _sha, ...flow }: FakeFlow) => flow;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const done = res.end.bind(res);
      res.end = ((...args: Parameters<typeof res.end>) => {
        requests.push({ method: req.method ?? 'GET', path: url.pathname, status: res.statusCode });
        return done(...args);
      }) as typeof res.end;
      handle(req, res, url, body).catch((err) => error(res, 500, 'INTERNAL', String(err)));
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: Buffer) {
    if (req.method === 'POST' && url.pathname === '/oauth2/token') {
      const form = new URLSearchParams(body.toString('utf8'));
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
      const [id, secret] = basic
        ? Buffer.from(basic[1]!, 'base64').toString().split(':')
        : [form.get('client_id'), form.get('client_secret')];
      if (form.get('grant_type') !== 'client_credentials')
        return json(res, 400, { error: 'unsupported_grant_type' });
      if (id !== clientId || secret !== clientSecret) return json(res, 401, { error: 'invalid_client' });
      const token = randomBytes(24).toString('base64url');
      const lifetime = options.tokenLifetimeSeconds ?? 3600;
      tokens.set(token, Date.now() + lifetime * 1000);
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: lifetime });
    }
    if (!url.pathname.startsWith('/afnor-flow/v1/')) return error(res, 404, 'NOT_FOUND', 'no such route');
    const fault = faults.shift();
    if (fault)
      return json(res, fault.status, fault.body, fault.retryAfter ? { 'retry-after': fault.retryAfter } : {});
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const expiry = bearer ? tokens.get(bearer) : undefined;
    if (expiry === undefined || expiry < Date.now())
      return error(res, 401, 'UNAUTHORIZED', 'missing, unknown or expired access token');
    const path = url.pathname.slice('/afnor-flow'.length);

    if (req.method === 'POST' && path === '/v1/flows') {
      const refusal = submissionFaults.shift();
      if (refusal) return json(res, refusal.status, refusal.body);
      const form = await new Request('http://fake/', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body,
      })
        .formData()
        .catch(() => null);
      const infoPart = form?.get('flowInfo');
      const filePart = form?.get('file');
      if (!form || infoPart === null || infoPart === undefined || !(filePart instanceof Blob))
        return error(res, 400, 'INVALID_REQUEST', 'a multipart body with flowInfo and file is required');
      let info: Record<string, unknown>;
      try {
        info = JSON.parse(typeof infoPart === 'string' ? infoPart : await infoPart.text());
      } catch {
        return error(res, 400, 'INVALID_FLOW_INFO', 'flowInfo is not JSON');
      }
      const file = Buffer.from(await filePart.arrayBuffer());
      const sha256 = createHash('sha256').update(file).digest('hex');
      if (typeof info.flowSyntax !== 'string' || !SYNTAXES.includes(info.flowSyntax))
        return error(res, 400, 'INVALID_FLOW_SYNTAX', `flowSyntax must be one of ${SYNTAXES.join(', ')}`);
      if (typeof info.name !== 'string' || info.name === '')
        return error(res, 400, 'INVALID_FLOW_INFO', 'flowInfo.name is required');
      if (info.processingRule !== undefined && !RULES.includes(String(info.processingRule)))
        return error(res, 400, 'INVALID_PROCESSING_RULE', 'unknown processingRule');
      if (info.sha256 !== undefined && info.sha256 !== sha256)
        return error(res, 400, 'INVALID_SHA256', 'the sha256 given is not the file’s');
      if (info.flowSyntax === 'Factur-X' && !file.subarray(0, 5).equals(Buffer.from('%PDF-')))
        return error(res, 400, 'INVALID_FILE', 'a Factur-X flow must be a PDF');
      const at = now();
      const flow: FakeFlow = {
        flowId: randomUUID(),
        trackingId: typeof info.trackingId === 'string' ? info.trackingId : null,
        name: info.name,
        flowSyntax: info.flowSyntax,
        flowType: info.flowSyntax === 'CDAR' ? 'CustomerInvoiceLC' : 'CustomerInvoice',
        flowDirection: 'Out',
        processingRule: typeof info.processingRule === 'string' ? info.processingRule : null,
        sha256,
        file,
        submittedAt: at,
        updatedAt: at,
        acknowledgement: { status: 'Pending' },
      };
      flows.push(flow);
      if (answersToLose > 0) {
        // Taken, but the gateway in front gave up before the answer: the caller cannot know.
        answersToLose--;
        return error(res, 504, 'GATEWAY_TIMEOUT', 'the upstream service did not answer in time');
      }
      if (holdRequested) {
        // Stored, then no answer: the caller dies before it hears that its flow was taken.
        const { onStored } = holdRequested;
        holdRequested = null;
        await new Promise<void>((resolve) => {
          hold = { resolve, stored: onStored };
          onStored();
        });
      }
      return json(res, 202, metadata(flow));
    }

    if (req.method === 'POST' && path === '/v1/flows/search') {
      let query: { where?: Record<string, unknown>; limit?: number };
      try {
        query = JSON.parse(body.toString('utf8'));
      } catch {
        return error(res, 400, 'INVALID_REQUEST', 'the body must be JSON');
      }
      const where = query.where ?? {};
      const limit = Math.min(Math.max(Number(query.limit ?? 25), 1), 100);
      const list = (value: unknown) => (Array.isArray(value) ? value : value === undefined ? null : [value]);
      const directions = list(where.flowDirection);
      const types = list(where.flowType);
      const results = flows
        .filter((f) => where.trackingId === undefined || f.trackingId === where.trackingId)
        .filter((f) => typeof where.updatedAfter !== 'string' || f.updatedAt > where.updatedAfter)
        .filter((f) => !directions || directions.includes(f.flowDirection))
        .filter((f) => !types || types.includes(f.flowType))
        .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt))
        .slice(0, limit)
        .map(metadata);
      return json(res, 200, { results, totalNumberOfResults: results.length });
    }

    const one = /^\/v1\/flows\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && one) {
      const flow = flows.find((f) => f.flowId === decodeURIComponent(one[1]!));
      if (!flow) return error(res, 404, 'FLOW_NOT_FOUND', 'no such flow');
      const docType = url.searchParams.get('docType') ?? 'Metadata';
      if (docType === 'Metadata') return json(res, 200, metadata(flow));
      if (docType !== 'Original')
        return error(res, 400, 'INVALID_DOC_TYPE', 'docType must be Metadata or Original');
      res.writeHead(200, {
        'content-type': flow.flowSyntax === 'Factur-X' ? 'application/pdf' : 'application/xml',
      });
      return res.end(flow.file);
    }
    return error(res, 404, 'NOT_FOUND', 'no such route');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  /** A life-cycle message from the buyer's side about one of our invoices, as a CDAR. */
  function cdar(number: string, code: string, reason?: { code: string; text: string }): Buffer {
    const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
    const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(
      RSM,
      'rsm:CrossDomainAcknowledgementAndResponse',
      {
        'xmlns:rsm': RSM,
        'xmlns:ram': RAM,
        'xmlns:udt': UDT,
      },
    );
    const exchanged = root.ele(RSM, 'rsm:ExchangedDocument');
    exchanged.ele(RAM, 'ram:ID').txt(`${number}_${code}_${stamp}`);
    exchanged.ele(RAM, 'ram:IssueDateTime').ele(UDT, 'udt:DateTimeString', { format: '204' }).txt(stamp);
    const referenced = root
      .ele(RSM, 'rsm:AcknowledgementDocument')
      .ele(RAM, 'ram:ReferenceReferencedDocument');
    referenced.ele(RAM, 'ram:IssuerAssignedID').txt(number);
    referenced.ele(RAM, 'ram:ProcessConditionCode').txt(code);
    referenced.ele(RAM, 'ram:ProcessCondition').txt(LABELS[code] ?? code);
    if (reason) {
      const status = referenced.ele(RAM, 'ram:SpecifiedDocumentStatus');
      status.ele(RAM, 'ram:ReasonCode').txt(reason.code);
      status.ele(RAM, 'ram:Reason').txt(reason.text);
    }
    return Buffer.from(root.end({ prettyPrint: true }));
  }

  return {
    config: {
      flowUrl: `${base}/afnor-flow`,
      tokenUrl: `${base}/oauth2/token`,
      clientId,
      clientSecret,
    },
    flows,
    requests,
    /** Submissions of a tracking id (the document's number): what must stay one. */
    submissions: (trackingId: string) =>
      flows.filter((f) => f.trackingId === trackingId && f.flowDirection === 'Out'),
    /** The next `count` calls to the Flow Service answer this (an outage: 503; throttling: 429). */
    fail(count: number, status: 429 | 500 | 503, retryAfter?: string) {
      const errorCode = status === 429 ? 'TOO_MANY_REQUESTS' : 'SERVICE_UNAVAILABLE';
      for (let i = 0; i < count; i++)
        faults.push({
          status,
          ...(retryAfter ? { retryAfter } : {}),
          body: { errorCode, errorMessage: 'try again later' },
        });
    },
    /** The next submission is refused with this status and error body (a platform-side check). */
    refuseNextSubmission(status: 400 | 403 | 413 | 422, errorCode: string, errorMessage: string) {
      submissionFaults.push({ status, body: { errorCode, errorMessage } });
    },
    /** The next `count` submissions are stored, then answered 504 (the answer is lost on the way). */
    loseAnswers(count: number) {
      answersToLose += count;
    },
    /** Revokes every token, as an expiry would. */
    revokeTokens: () => tokens.clear(),
    /** The platform's verdict on a submitted document: Ok (200 Déposée), or Error (213 Rejetée) with details. */
    acknowledge(trackingId: string, status: 'Ok' | 'Error', details: object[] = []) {
      const flow = flows.find((f) => f.trackingId === trackingId && f.flowDirection === 'Out');
      if (!flow) throw new Error(`no flow ${trackingId}`);
      flow.acknowledgement = status === 'Ok' ? { status } : { status, details };
      flow.updatedAt = now();
    },
    /** A status from the buyer's side (202 Reçue, 205 Approuvée, 210 Refusée…) as an incoming flow. */
    lifecycle(number: string, code: string, reason?: { code: string; text: string }) {
      const file = cdar(number, code, reason);
      const at = now();
      flows.push({
        flowId: randomUUID(),
        trackingId: null,
        name: `${number}_${code}.xml`,
        flowSyntax: 'CDAR',
        flowType: 'CustomerInvoiceLC',
        flowDirection: 'In',
        processingRule: null,
        sha256: createHash('sha256').update(file).digest('hex'),
        file,
        submittedAt: at,
        updatedAt: at,
        acknowledgement: { status: 'Ok' },
      });
    },
    /** The next submission is stored, then left unanswered until `release()`; resolves once stored. */
    holdNextSubmission(): Promise<void> {
      return new Promise<void>((resolve) => {
        holdRequested = { onStored: resolve };
      });
    },
    release() {
      (hold as { resolve: () => void } | null)?.resolve();
      hold = null;
    },
    async close() {
      (hold as { resolve: () => void } | null)?.resolve();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeAfnorPa = Awaited<ReturnType<typeof startFakeAfnorPa>>;
