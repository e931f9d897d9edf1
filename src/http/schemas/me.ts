import { Type } from '@sinclair/typebox';
import { SCOPES } from '../../domain/api-keys/keys.ts';
import { NullableTimestamp, StringEnum, Timestamp } from './shared.ts';

export const ScopeSchema = StringEnum(SCOPES, { description: 'A permission carried by an API key.' });

export const MeResponse = Type.Object({
  ok: Type.Literal(true),
  brand: Type.Object({
    id: Type.String({ examples: ['brd_9a8b7c6d5e4f3a2b'] }),
    name: Type.String(),
    created_at: Timestamp(),
  }),
  key: Type.Object({
    id: Type.String({ examples: ['key_0c1d2e3f4a5b6c7d'] }),
    prefix: Type.String({ description: 'The first 12 characters of the key (`dlv_` + 8 hex).' }),
    scopes: Type.Array(ScopeSchema),
    created_at: Timestamp(),
    last_used_at: NullableTimestamp('Updated at most once a minute.'),
  }),
});
