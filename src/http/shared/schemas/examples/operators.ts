import { errorExample, type OperationExamples, type Unprocessable } from './types.ts';

const ADMIN = {
  id: 'opr_4d2c8e1f0a9b3c75',
  email: 'claire.roux@livraison-dlv.fr',
  name: 'Claire Roux',
  role: 'admin',
  must_choose_password: false,
  second_factor_enrolled_at: '2026-11-02T08:41:10.000Z',
  disabled_at: null,
  created_at: '2026-11-02T08:30:00.000Z',
};
const NEWCOMER = {
  id: 'opr_9e7b1c3d5f2a4068',
  email: 'karim.benali@livraison-dlv.fr',
  name: 'Karim Benali',
  role: 'dispatcher',
  must_choose_password: true,
  second_factor_enrolled_at: null,
  disabled_at: null,
  created_at: '2026-11-24T07:55:00.000Z',
};
const ONE_TIME_PASSWORD = 'k7mq-2xhp-9rtd-w4nc';
const SESSION = {
  token: 'dlv_sess_q1Z3mC8vN0bX7kR2tY5uW9eA4sD6fG8hJ1kL3zX5cV7',
  expires_at: '2026-11-24T20:12:31.000Z',
  idle_timeout_seconds: 1800,
  setup: null,
};
const SETUP_SESSION = {
  ...SESSION,
  expires_at: '2026-11-24T08:27:31.000Z',
  setup: { choose_password: true, enrol_second_factor: true },
};
const RECOVERY_CODES = [
  'k7mq-2xhp-9rtd-w4nc',
  'b3vz-8ney-4qfa-m2ks',
  'p6wd-t9gh-3jcx-r7ua',
  'e2ny-5kbm-8vqs-h4dt',
  'z9cr-7fxa-2mwe-n6gp',
  'u4kt-3hqd-9bsy-c8mv',
  'x5gn-6pwr-2tez-j3fk',
  'a8dm-4yvc-7qhu-s2rn',
  'w3fe-9kzt-5gnb-y6qx',
  'h7sq-2cud-8mpa-v4ej',
];
const TOKEN = {
  id: 'otk_2b6f0e4a8c1d9e37',
  name: 'Hub scanner Saint-Ouen',
  prefix: 'dlv_ops_5e8a1c3f',
  scopes: ['orders:read', 'scans:write'],
  created_at: '2026-11-03T10:00:00.000Z',
  expires_at: '2027-11-03T10:00:00.000Z',
  revoked_at: null,
  last_used_at: '2026-11-24T09:12:00.000Z',
};
const NO_OPERATOR = {
  unknown: {
    summary: 'No such operator',
    value: errorExample('not_found', 'No operator opr_9e7b1c3d5f2a4068.'),
  },
};
const LAST_ADMIN: Unprocessable = {
  summary: 'The last enabled admin',
  message:
    'claire.roux@livraison-dlv.fr is the last enabled admin: make another operator admin before disabling them.',
};
const OPERATOR_DISABLED: Unprocessable = {
  summary: 'A disabled operator',
  message: 'Operator opr_9e7b1c3d5f2a4068 is disabled: it cannot sign in, so it gets no new password.',
};
const ENROLLED = {
  enrolled: {
    summary: 'A second factor is enrolled already',
    value: errorExample(
      'second_factor_enrolled',
      'Your second factor is enrolled already; an admin can reset it if you lost your authenticator.',
    ),
  },
};
const NONE = { none: { summary: 'No body is needed; `{}` is the same', value: {} } };
const WITH_PASSWORD = (summary: string, operator: object) => ({
  200: { reset: { summary, value: { ok: true, operator, one_time_password: ONE_TIME_PASSWORD } } },
  404: NO_OPERATOR,
});

const GRID_ROWS = [
  {
    service: 'standard',
    zone: 'paris',
    unit_type: 'parcel',
    max_weight_kg: 5,
    first_unit_eur: 9.8,
    extra_unit_eur: 4.9,
  },
  {
    service: 'standard',
    zone: 'paris',
    unit_type: 'parcel',
    max_weight_kg: 30,
    first_unit_eur: 14.5,
    extra_unit_eur: 7.2,
  },
];
const GRID = {
  grid: {
    summary: 'A grid and the weights it leaves unpriced',
    value: {
      ok: true,
      source: 'negotiated',
      row_count: 2,
      imported_at: '2026-10-01T09:00:00.000Z',
      rows: GRID_ROWS,
      holes: [{ service: 'standard', zone: 'paris', unit_type: 'envelope', max_weight_kg: 2 }],
    },
  },
};
const IMPORT = {
  request: { grid: { summary: 'A grid file in its JSON form', value: { rows: GRID_ROWS } } },
  responses: {
    200: {
      imported: {
        summary: 'Imported (version 7), with its holes',
        value: {
          ok: true,
          scope: 'brd_9a8b7c6d5e4f3a2b',
          row_count: 2,
          version: 7,
          imported_at: '2026-11-24T09:12:31.000Z',
          holes: [{ service: 'standard', zone: 'paris', unit_type: 'envelope', max_weight_kg: 2 }],
        },
      },
    },
    400: {
      badRow: {
        summary: 'A row the grid rules refuse (nothing imported)',
        value: errorExample(
          'invalid_request',
          'row 2: same service, zone, unit_type and max_weight_kg as row 1 (standard, paris, parcel, 30 kg)',
          [
            {
              field: 'row 2',
              message:
                'same service, zone, unit_type and max_weight_kg as row 1 (standard, paris, parcel, 30 kg)',
            },
          ],
        ),
      },
    },
  },
};
const BRAND = {
  id: 'brd_9a8b7c6d5e4f3a2b',
  name: 'Maison Lemoine',
  default_pickup_address: '5 rue du Dépôt 93200 Saint-Denis',
  created_at: '2026-09-01T10:00:00.000Z',
  disabled_at: null,
  webhooks_allowed: false,
};

/** The operations API's people, tokens, sessions, invoices, grids and brands. */
export const OPS_OPERATOR_EXAMPLES: Record<string, OperationExamples> = {
  opsSignIn: {
    request: {
      signIn: {
        summary: 'Password and the code of the authenticator app',
        value: {
          email: 'claire.roux@livraison-dlv.fr',
          password: 'correct horse battery staple',
          code: '492039',
        },
      },
      first: {
        summary: 'A first sign-in, with the one-time password an admin handed over',
        value: { email: 'karim.benali@livraison-dlv.fr', password: ONE_TIME_PASSWORD },
      },
    },
    responses: {
      201: {
        signedIn: { summary: 'Signed in', value: { ok: true, operator: ADMIN, session: SESSION } },
        setup: {
          summary: 'A setup session: choose a password and enrol the second factor first',
          value: { ok: true, operator: NEWCOMER, session: SETUP_SESSION },
        },
      },
      401: {
        refused: {
          summary: 'Whatever was wrong, one answer',
          value: errorExample(
            'unauthorized',
            'Sign-in refused: the e-mail, the password or the second-factor code is wrong, the one-time password was used or has expired, or the account is disabled.',
          ),
        },
      },
      429: {
        tooMany: {
          summary: 'Too many failed attempts for this e-mail or from this address',
          value: errorExample(
            'rate_limited',
            'Too many failed sign-in attempts: wait a few minutes and try again.',
          ),
        },
      },
    },
  },
  opsSignOut: {
    responses: { 200: { signedOut: { summary: 'The token no longer works', value: { ok: true } } } },
  },
  opsWhoAmI: {
    responses: {
      200: {
        session: {
          summary: "An admin's session",
          value: {
            ok: true,
            credential: 'session',
            scopes: ['orders:read', 'orders:write', 'operators:write'],
            operator: ADMIN,
            session: {
              expires_at: SESSION.expires_at,
              idle_timeout_seconds: 1800,
              setup: null,
              recovery_codes_left: 9,
            },
            token: null,
          },
        },
        token: {
          summary: 'A machine token',
          value: {
            ok: true,
            credential: 'token',
            scopes: TOKEN.scopes,
            operator: null,
            session: null,
            token: TOKEN,
          },
        },
      },
    },
  },
  opsChoosePassword: {
    request: {
      first: { summary: 'After a one-time password', value: { password: 'tulip ladder orbit 1987' } },
      change: {
        summary: 'A change, with the current password',
        value: { current_password: 'correct horse battery staple', password: 'tulip ladder orbit 1987' },
      },
    },
    responses: {
      200: {
        chosen: {
          summary: 'Chosen: the second factor is still to enrol',
          value: {
            ok: true,
            operator: { ...NEWCOMER, must_choose_password: false },
            session: { ...SETUP_SESSION, setup: { choose_password: false, enrol_second_factor: true } },
          },
        },
      },
    },
  },
  opsBeginEnrolment: {
    request: NONE,
    responses: {
      200: {
        secret: {
          summary: 'The secret, its URI and its QR code (abridged)',
          value: {
            ok: true,
            secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
            otpauth_uri:
              'otpauth://totp/Livraison%20DLV:karim.benali%40livraison-dlv.fr?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Livraison%20DLV&algorithm=SHA1&digits=6&period=30',
            qr_svg: '<svg viewBox="0 0 424 424" xmlns="http://www.w3.org/2000/svg">…</svg>',
          },
        },
      },
      409: ENROLLED,
    },
  },
  opsConfirmEnrolment: {
    request: { code: { summary: 'The code the app shows now', value: { code: '492039' } } },
    responses: {
      200: {
        enrolled: {
          summary: 'Enrolled: signed in, with the recovery codes (shown once)',
          value: {
            ok: true,
            operator: {
              ...NEWCOMER,
              must_choose_password: false,
              second_factor_enrolled_at: '2026-11-24T08:14:02.000Z',
            },
            session: SESSION,
            recovery_codes: RECOVERY_CODES,
          },
        },
      },
      409: ENROLLED,
    },
  },
  opsRenewRecoveryCodes: {
    request: { code: { summary: 'A current code of the app', value: { code: '492039' } } },
    responses: {
      200: {
        renewed: {
          summary: 'Ten new codes; the old ones no longer work',
          value: { ok: true, recovery_codes: RECOVERY_CODES },
        },
      },
    },
  },
  opsListOperators: {
    responses: {
      200: { all: { summary: 'Enabled first', value: { ok: true, operators: [ADMIN, NEWCOMER] } } },
    },
  },
  opsAddOperator: {
    request: {
      dispatcher: {
        summary: 'A dispatcher',
        value: { email: NEWCOMER.email, name: NEWCOMER.name, role: 'dispatcher' },
      },
    },
    responses: {
      201: {
        added: {
          summary: 'Added, with the one-time password to hand over',
          value: { ok: true, operator: NEWCOMER, one_time_password: ONE_TIME_PASSWORD },
        },
      },
    },
  },
  opsSetOperatorRole: {
    request: { finance: { summary: 'To finance', value: { role: 'finance' } } },
    responses: {
      200: {
        changed: {
          summary: 'Their sessions follow at once',
          value: { ok: true, operator: { ...NEWCOMER, role: 'finance' } },
        },
      },
      404: NO_OPERATOR,
    },
    unprocessable: { last_admin: LAST_ADMIN },
  },
  opsDisableOperator: {
    request: NONE,
    responses: {
      200: {
        disabled: {
          summary: 'Disabled: sessions ended',
          value: { ok: true, operator: { ...NEWCOMER, disabled_at: '2026-11-24T18:02:00.000Z' } },
        },
      },
      404: NO_OPERATOR,
    },
    unprocessable: { last_admin: LAST_ADMIN },
  },
  opsResetOperatorPassword: {
    request: NONE,
    responses: WITH_PASSWORD('A new one-time password; the second factor stays', {
      ...NEWCOMER,
      second_factor_enrolled_at: '2026-11-24T08:14:02.000Z',
    }),
    unprocessable: { operator_disabled: OPERATOR_DISABLED },
  },
  opsResetOperatorSecondFactor: {
    request: NONE,
    responses: WITH_PASSWORD('Second factor removed; the next sign-in enrols again', NEWCOMER),
    unprocessable: { operator_disabled: OPERATOR_DISABLED },
  },
  opsListTokens: {
    responses: {
      200: {
        all: {
          summary: 'Working ones first',
          value: {
            ok: true,
            tokens: [
              TOKEN,
              {
                ...TOKEN,
                id: 'otk_7a1e5c9b3d0f2e48',
                name: 'Old planner',
                revoked_at: '2026-11-10T12:00:00.000Z',
              },
            ],
          },
        },
      },
    },
  },
  opsCreateToken: {
    request: {
      scanner: {
        summary: 'A scanner at the hub, for a year',
        value: { name: TOKEN.name, scopes: TOKEN.scopes, expires_at: TOKEN.expires_at },
      },
    },
    responses: {
      201: {
        created: {
          summary: 'The token, shown this once',
          value: {
            ok: true,
            token: { ...TOKEN, last_used_at: null, token: `dlv_ops_5e8a1c3f${'0'.repeat(56)}` },
          },
        },
      },
    },
  },
  opsRevokeToken: {
    request: NONE,
    responses: {
      200: {
        revoked: {
          summary: 'Revoked: refused within 5 seconds everywhere',
          value: { ok: true, token: { ...TOKEN, revoked_at: '2026-11-24T18:02:00.000Z' } },
        },
      },
      404: {
        unknown: {
          summary: 'No such token',
          value: errorExample('not_found', 'No machine token otk_2b6f0e4a8c1d9e37.'),
        },
      },
    },
  },
  opsGetDefaultGrid: { responses: { 200: GRID } },
  opsGetBrandGrid: { responses: { 200: GRID } },
  opsImportDefaultGrid: IMPORT,
  opsImportBrandGrid: IMPORT,
  opsListBrands: {
    responses: { 200: { all: { summary: 'The brands', value: { ok: true, brands: [BRAND] } } } },
  },
  opsGetBrand: { responses: { 200: { brand: { summary: 'A brand', value: { ok: true, brand: BRAND } } } } },
  opsCreateBrand: {
    request: {
      brand: {
        summary: 'With a default pickup address',
        value: { name: BRAND.name, pickup_address: BRAND.default_pickup_address },
      },
    },
    responses: { 201: { created: { summary: 'Created', value: { ok: true, brand: BRAND } } } },
    unprocessable: {
      out_of_zone: {
        summary: 'A pickup address outside Île-de-France',
        message:
          'pickup_address: 69002 (Lyon) is outside the delivery zone; only Île-de-France (75, 77, 78, 91, 92, 93, 94, 95) is served.',
      },
      invalid_address: {
        summary: 'A pickup address without a French postcode',
        message: 'pickup_address: no French postcode (5 digits) found in the address.',
      },
    },
  },
};
