import { Type } from '@sinclair/typebox';
import { ACTOR_KINDS } from '../../../domain/audit/actor.ts';
import { MAX_EXPORT } from '../../../domain/audit/audit-log.ts';
import { NullableString, Page, PageCursor, StringEnum, Timestamp } from './shared.ts';

export const AUDIT_FORMATS = ['json', 'csv', 'jsonl'] as const;

const Text = (maxLength: number, description: string) => Type.String({ maxLength, description });

/** A JSON object of what changed or happened; its members depend on the action. */
const FreeObject = (description: string) =>
  Type.Unsafe<Record<string, unknown> | null>({
    type: ['object', 'null'],
    additionalProperties: true,
    maxProperties: 100,
    description,
  });

const AuditEventSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[0-9]{1,19}$', maxLength: 19, description: 'Its sequence number.' }),
    at: Timestamp('When the change (its transaction) was made.'),
    actor: Type.Object({
      kind: StringEnum(ACTOR_KINDS, {
        description:
          '`operator` (a named person), `token` (a machine token), `bootstrap` (the shared OPS_TOKEN), `cli` (`dlv` as user@host), `courier`, `user` (a brand’s person, account area), `api_key`, `system` (a scheduled job).',
      }),
      id: NullableString({ maxLength: 200, description: 'Its id (none for the bootstrap token).' }),
      label: Text(
        200,
        'How a person reads who it was: an e-mail, a token’s name, OPS_TOKEN, user@host, an id.',
      ),
    }),
    origin: Type.Union(
      [
        Type.Object({
          client_address: NullableString({ maxLength: 64 }),
          user_agent: NullableString({ maxLength: 512 }),
          request_id: NullableString({ maxLength: 100 }),
        }),
        Type.Null(),
      ],
      { description: 'Where the request came from; null for the CLI and the jobs.' },
    ),
    action: Text(81, 'From the catalogue: `order.status_changed`, `round.assigned`, `recipient.read`…'),
    object: Type.Object({
      type: Text(40, '`order`, `round`, `courier`, `invoice`…'),
      id: Text(200, 'Its id or reference.'),
    }),
    brand_id: NullableString({ maxLength: 20 }),
    order_refs: Type.Array(Type.String({ maxLength: 14 }), {
      maxItems: 10_000,
      description: 'The orders it was about (a read of several lists them all).',
    }),
    changes: FreeObject(
      'The changed fields only: `{"status": {"before": "pending", "after": "picked_up"}}`; a person’s field is `"changed"`, without its values.',
    ),
    details: FreeObject('What else says what happened (counts, a scan’s context): never a person’s data.'),
  },
  { description: 'One entry of the audit trail.' },
);

export const AuditQuery = Type.Object(
  {
    actor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'An actor kind (`courier`, `cli`…), or an actor’s id or label (`cou_…`, `alice@depot-1`, an operator’s e-mail).',
      }),
    ),
    order: Type.Optional(
      Type.String({ maxLength: 14, description: 'Rows about this order (its tracking reference).' }),
    ),
    action: Type.Optional(
      Type.String({
        maxLength: 81,
        description: 'One action (`order.status_changed`) or a group (`round.*`).',
      }),
    ),
    brand: Type.Optional(Type.String({ maxLength: 20, description: 'Rows about this brand (`brd_…`).' })),
    since: Type.Optional(
      Type.String({
        maxLength: 35,
        description: 'From this time, included: a date (midnight UTC) or an ISO 8601 time with its offset.',
      }),
    ),
    until: Type.Optional(Type.String({ maxLength: 35, description: 'To this time, excluded (same forms).' })),
    limit: Type.Optional(
      Type.Integer({
        format: 'int32',
        minimum: 1,
        maximum: MAX_EXPORT,
        description: `A JSON page: 1–200, 50 by default. An export (CSV, JSON Lines): every matching row, or the first \`limit\` (up to ${MAX_EXPORT}).`,
      }),
    ),
    cursor: PageCursor,
    format: Type.Optional(
      StringEnum(AUDIT_FORMATS, {
        description:
          'json (the default), csv or jsonl (JSON Lines); or ask with `Accept: text/csv` or `Accept: application/x-ndjson`.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const AuditPage = Page('events', AuditEventSchema, 'The trail, newest first.');
