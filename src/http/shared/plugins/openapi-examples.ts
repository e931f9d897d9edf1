import type { ErrorCode } from '../../../errors.ts';
import { type Examples, errorExample, type OperationExamples } from '../schemas/examples/types.ts';

export interface ExampleCatalogue {
  /** By operationId. */
  operations: Record<string, OperationExamples>;
  /** What a request without valid credentials is told in this document's API. */
  unauthorizedMessage: string;
  /** What a 429 says in this document's API (default: the per-key limit's words). */
  rateLimitedMessage?: string;
  /** What a 403 says to a credential without the operation's scope (default: an API key's words). */
  forbiddenMessage?: (scope: string | undefined) => string;
}

interface Media {
  schema?: unknown;
  example?: unknown;
  examples?: Examples;
}
interface Operation {
  operationId?: string;
  'x-required-scope'?: string;
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { description?: string; content?: Record<string, Media> }>;
}

/** The one error each status stands for, with the message the API gives for it. */
function defaultError(
  status: string,
  op: Operation,
  catalogue: ExampleCatalogue,
): [ErrorCode, string] | null {
  switch (status) {
    case '400':
      return ['invalid_request', 'The URL is not valid (check its percent-encoding).'];
    case '401':
      return ['unauthorized', catalogue.unauthorizedMessage];
    case '403':
      return [
        'insufficient_scope',
        catalogue.forbiddenMessage?.(op['x-required-scope']) ??
          `This API key lacks the "${op['x-required-scope']}" scope needed here.`,
      ];
    case '404':
      return ['not_found', 'No object with this id for this brand.'];
    case '409':
      return [
        'idempotency_conflict',
        'A request with this Idempotency-Key is still being processed; retry shortly.',
      ];
    case '413':
      return ['payload_too_large', 'The body is larger than 64 KiB.'];
    case '415':
      return ['unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".'];
    case '429':
      return [
        'rate_limited',
        catalogue.rateLimitedMessage ?? 'Too many requests for this API key: 50 per second, bursts of 100.',
      ];
    case '500':
      return ['internal_error', 'An internal error occurred; it has been logged with this request id.'];
    case '503':
      return ['unavailable', 'The service is temporarily unavailable; retry shortly.'];
    default:
      return null;
  }
}

/**
 * Puts each operation's examples on its media types (where client generators and the docs page
 * look for them), gives every error response an example of its envelope, and narrows each 422 to
 * the codes its operation can answer: listed in its description and as the enum of `error`.
 */
export function describeExamples<T extends { paths?: object }>(document: T, catalogue: ExampleCatalogue): T {
  for (const pathItem of Object.values(document.paths ?? {}) as Record<string, Operation>[]) {
    for (const op of Object.values(pathItem)) {
      const own = catalogue.operations[op.operationId ?? ''] ?? { responses: {} };
      const body = op.requestBody?.content?.['application/json'];
      if (body && own.request) setExamples(body, own.request);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const media = response.content?.['application/json'];
        if (!media) continue;
        if (status === '422') {
          describeUnprocessable(op, response, media);
          continue;
        }
        const given = own.responses[status];
        const fallback = defaultError(status, op, catalogue);
        if (given) setExamples(media, given);
        else if (fallback) {
          const [code, message] = fallback;
          setExamples(media, {
            [code]: { summary: response.description ?? code, value: errorExample(code, message) },
          });
        }
      }
    }
  }
  return document;

  function describeUnprocessable(op: Operation, response: { description?: string }, media: Media): void {
    const listed = Object.entries(catalogue.operations[op.operationId ?? '']?.unprocessable ?? {});
    if (listed.length === 0)
      throw new Error(`${op.operationId}: a 422 response needs its codes in the examples`);
    media.schema = {
      allOf: [
        media.schema,
        { type: 'object', properties: { error: { type: 'string', enum: listed.map(([code]) => code) } } },
      ],
    };
    response.description = `The request is well-formed but cannot be carried out; \`error\` is one of: ${listed
      .map(([code, u]) => `\`${code}\` (${insideSentence(u!.summary)})`)
      .join(', ')}.`;
    setExamples(
      media,
      Object.fromEntries(
        listed.map(([code, u]) => [
          code,
          { summary: u!.summary, value: errorExample(code as ErrorCode, u!.message, u!.details) },
        ]),
      ),
    );
  }
}

function setExamples(media: Media, examples: Examples): void {
  delete media.example;
  media.examples = examples;
}

/**
 * A summary continued inside a sentence: its first word lower-cased, unless that word is a name
 * whose spelling is part of the contract (`Idempotency-Key`, `PATCH`, `SIRET`), kept as written.
 */
function insideSentence(summary: string): string {
  return /^[A-Z][a-z]*(?![A-Za-z-])/.test(summary)
    ? summary.charAt(0).toLowerCase() + summary.slice(1)
    : summary;
}
