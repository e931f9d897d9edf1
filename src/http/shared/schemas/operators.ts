import { Type } from '@sinclair/typebox';
import { OPERATOR_ONE_TIME_PASSWORD_HOURS } from '../../../domain/operators/operator-service.ts';
import { OPERATOR_SESSION_IDLE_MS } from '../../../domain/operators/operator-sessions.ts';
import { RECOVERY_CODE_COUNT } from '../../../domain/operators/recovery-codes.ts';
import { OPERATOR_ROLES, OPS_SCOPES, TOKEN_SCOPES } from '../../../domain/operators/scopes.ts';
import { NullableString, NullableTimestamp, PrefixedId, StringEnum, Timestamp } from './shared.ts';

const Role = StringEnum(OPERATOR_ROLES, {
  description:
    '`admin`: everything (people, tokens, settings); `dispatcher`: rounds, couriers, scans, orders’ statuses, pickups; ' +
    '`finance`: invoices, credit notes, grids; `support`: reads everything, answers brands, sends notifications again.',
});
const Scope = StringEnum(OPS_SCOPES);

export const OperatorSchema = Type.Object(
  {
    id: PrefixedId('opr', 16),
    email: Type.String({ maxLength: 254 }),
    name: Type.String({ maxLength: 100 }),
    role: Role,
    must_choose_password: Type.Boolean({
      description:
        'True while the operator holds a one-time password an admin handed over: their next sign-in chooses their own.',
    }),
    second_factor_enrolled_at: NullableTimestamp(
      'Null until they enrol TOTP (and after an admin resets it).',
    ),
    disabled_at: NullableTimestamp('Null while enabled.'),
    created_at: Timestamp(),
  },
  { additionalProperties: false },
);

export const OperatorIdParams = Type.Object({
  operatorId: Type.String({ maxLength: 254, description: 'The operator id (`opr_…`) or their e-mail.' }),
});

export const NewOperatorBody = Type.Object(
  {
    email: Type.String({ maxLength: 254, description: 'Their sign-in e-mail (unique among operators).' }),
    name: Type.String({ maxLength: 100 }),
    role: Role,
  },
  { additionalProperties: false },
);

export const RoleBody = Type.Object({ role: Role }, { additionalProperties: false });

export const OperatorResponse = Type.Object({ ok: Type.Literal(true), operator: OperatorSchema });

export const OperatorWithPasswordResponse = Type.Object({
  ok: Type.Literal(true),
  operator: OperatorSchema,
  one_time_password: Type.String({
    maxLength: 40,
    description:
      `Given once (only its hash is kept): hand it to the person. It opens one sign-in within ${OPERATOR_ONE_TIME_PASSWORD_HOURS} hours, ` +
      'which must choose their own password and enrol their second factor before anything else.',
  }),
});

export const OpsTokenSchema = Type.Object(
  {
    id: PrefixedId('otk', 16),
    name: Type.String({ maxLength: 100 }),
    prefix: Type.String({
      maxLength: 16,
      description: '`dlv_ops_` + 8 hex: recognises the token without revealing it.',
    }),
    scopes: Type.Array(Scope, { maxItems: OPS_SCOPES.length }),
    created_at: Timestamp(),
    expires_at: NullableTimestamp('Null: no end (until revoked).'),
    revoked_at: NullableTimestamp(),
    last_used_at: NullableTimestamp('Updated at most once a minute.'),
  },
  { additionalProperties: false },
);

// `id`: the security lint takes a parameter named for a token to carry one.
export const TokenIdParams = Type.Object({
  id: Type.String({ maxLength: 100, description: 'The machine token’s id (`otk_…`), never the token.' }),
});

export const NewTokenBody = Type.Object(
  {
    name: Type.String({ maxLength: 100, description: 'What uses it (unique among the tokens not revoked).' }),
    scopes: Type.Array(StringEnum(TOKEN_SCOPES), {
      minItems: 1,
      maxItems: TOKEN_SCOPES.length,
      description: 'What it may do. `operators:*` is for people only.',
    }),
    expires_at: Type.Optional(Timestamp('When it stops working (within 10 years); absent: until revoked.')),
  },
  { additionalProperties: false },
);

export const CreatedTokenResponse = Type.Object({
  ok: Type.Literal(true),
  token: Type.Object(
    {
      ...OpsTokenSchema.properties,
      token: Type.String({
        pattern: '^dlv_ops_[0-9a-f]{64}$',
        maxLength: 72,
        description: 'The token, shown this once: only its SHA-256 digest is kept.',
      }),
    },
    { additionalProperties: false },
  ),
});

const Setup = Type.Unsafe<{ choose_password: boolean; enrol_second_factor: boolean } | null>({
  type: ['object', 'null'],
  properties: {
    choose_password: { type: 'boolean' },
    enrol_second_factor: { type: 'boolean' },
  },
  required: ['choose_password', 'enrol_second_factor'],
  additionalProperties: false,
  description:
    'A setup session (a first sign-in, or after an admin’s reset) and what it still has to do: it can do nothing else. Null once signed in.',
});

const SESSION_DESCRIPTION =
  `Send it as \`Authorization: Bearer <token>\`. It ends ${OPERATOR_SESSION_IDLE_MS / 60_000} minutes after its last use, ` +
  'at `expires_at` however active, at sign-out, when the operator is disabled, and when their password or second factor is reset.';

const NewSessionSchema = Type.Object(
  {
    token: Type.String({
      pattern: '^dlv_sess_[A-Za-z0-9_-]{43}$',
      maxLength: 52,
      description: 'The session token, given once (only its SHA-256 is kept).',
    }),
    expires_at: Timestamp(),
    idle_timeout_seconds: Type.Integer({ format: 'int32', minimum: 1, maximum: 86400 }),
    setup: Setup,
  },
  { additionalProperties: false, description: SESSION_DESCRIPTION },
);

export const SignInBody = Type.Object(
  {
    email: Type.String({ maxLength: 254 }),
    password: Type.String({ maxLength: 1024 }),
    code: Type.Optional(
      NullableString({
        maxLength: 40,
        description:
          'Once the second factor is enrolled: the 6-digit code the authenticator app shows (each accepted once), or an unused recovery code.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SessionResponse = Type.Object({
  ok: Type.Literal(true),
  operator: OperatorSchema,
  session: NewSessionSchema,
});

export const MeResponse = Type.Object({
  ok: Type.Literal(true),
  credential: StringEnum(['session', 'token', 'ops_token'] as const, {
    description:
      '`ops_token`: the bootstrap OPS_TOKEN (create people and tokens with it, then stop using it).',
  }),
  scopes: Type.Array(Scope, { maxItems: OPS_SCOPES.length, description: 'What this credential may do now.' }),
  operator: Type.Union([OperatorSchema, Type.Null()]),
  session: Type.Union([
    Type.Object(
      {
        expires_at: Timestamp(),
        idle_timeout_seconds: Type.Integer({ format: 'int32', minimum: 1, maximum: 86400 }),
        setup: Setup,
        recovery_codes_left: Type.Integer({ format: 'int32', minimum: 0, maximum: RECOVERY_CODE_COUNT }),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ]),
  token: Type.Union([OpsTokenSchema, Type.Null()]),
});

export const PasswordBody = Type.Object(
  {
    current_password: Type.Optional(
      Type.String({
        maxLength: 1024,
        description: 'Needed unless the password held is a one-time password.',
      }),
    ),
    password: Type.String({
      maxLength: 1024,
      description: '12 to 128 characters, not a common password, not containing the e-mail’s local part.',
    }),
  },
  { additionalProperties: false },
);

export const EnrolmentResponse = Type.Object({
  ok: Type.Literal(true),
  secret: Type.String({
    maxLength: 64,
    description: 'The TOTP secret in base32, to type into the app by hand.',
  }),
  otpauth_uri: Type.String({
    maxLength: 1000,
    description: 'The `otpauth://totp/…` URI (SHA-1, 6 digits, 30 s) the QR code carries.',
  }),
  qr_svg: Type.String({ maxLength: 100_000, description: 'The QR code of `otpauth_uri`, an SVG document.' }),
});

export const CodeBody = Type.Object(
  { code: Type.String({ maxLength: 40, description: 'The 6-digit code the authenticator app shows now.' }) },
  { additionalProperties: false },
);

const RecoveryCodes = Type.Array(Type.String({ pattern: '^[a-z2-9]{4}(-[a-z2-9]{4}){3}$', maxLength: 19 }), {
  minItems: RECOVERY_CODE_COUNT,
  maxItems: RECOVERY_CODE_COUNT,
  description:
    'One-use codes that stand for a TOTP code at sign-in, shown this once (only their digests are kept): keep them apart from the phone.',
});

export const EnrolledResponse = Type.Object({
  ok: Type.Literal(true),
  operator: OperatorSchema,
  session: NewSessionSchema,
  recovery_codes: RecoveryCodes,
});

export const RecoveryCodesResponse = Type.Object({ ok: Type.Literal(true), recovery_codes: RecoveryCodes });
