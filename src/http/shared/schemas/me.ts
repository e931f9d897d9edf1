import { Type } from '@sinclair/typebox';
import { SCOPES } from '../../../domain/api-keys/keys.ts';
import { NullableTimestamp, PrefixedId, StringEnum, Timestamp } from './shared.ts';

const ScopeSchema = StringEnum(SCOPES, { description: 'A permission carried by an API key.' });

export const MeResponse = Type.Object({
  ok: Type.Literal(true),
  brand: Type.Object({
    id: PrefixedId('brd', 16, { examples: ['brd_9a8b7c6d5e4f3a2b'] }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    created_at: Timestamp(),
  }),
  key: Type.Object({
    id: PrefixedId('key', 16, { examples: ['key_0c1d2e3f4a5b6c7d'] }),
    prefix: Type.String({
      pattern: '^dlv_[0-9a-f]{8}$',
      maxLength: 12,
      description: 'The first 12 characters of the key (`dlv_` + 8 hex).',
    }),
    scopes: Type.Array(ScopeSchema, { maxItems: SCOPES.length, uniqueItems: true }),
    created_at: Timestamp(),
    last_used_at: NullableTimestamp('Updated at most once a minute.'),
  }),
});
