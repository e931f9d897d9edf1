import { ISSUED_INVOICE_EXAMPLE } from './others.ts';
import { errorExample, type OperationExamples } from './types.ts';

const BRAND = 'brd_3f9a0c1d2e3f4a5b';
const COMPANY = {
  legal_name: 'Maison Lumière SARL',
  billing_address: '3 rue de Rivoli\n75004 Paris',
  siren: '732829320',
  siret: '73282932000017',
  vat_number: 'FR44732829320',
  pickup_address: '5 rue du Dépôt 93200 Saint-Denis',
};
const HELD_REASON =
  'brand brd_0b1c2d3e4f5a6b7c cannot be invoiced: no SIREN (its owner sets them on the account area\'s Company page, or the operator with "dlv brands company brd_0b1c2d3e4f5a6b7c --siren … --billing-address …")';
const NO_INVOICE = {
  unknown: {
    summary: 'No such invoice',
    value: errorExample('not_found', 'No invoice with id "inv_3f9a0c1d2e3f4a5b".'),
  },
};

/** The operator's invoice and company operations (src/http/ops/routes/invoices.ts). */
export const OPS_INVOICE_EXAMPLES: Record<string, OperationExamples> = {
  opsGetInvoice: {
    responses: {
      200: {
        refused: {
          summary: 'An invoice its buyer refused, with the reason',
          value: {
            ok: true,
            brand_id: BRAND,
            invoice: {
              ...ISSUED_INVOICE_EXAMPLE,
              einvoice_status: 'refused',
              einvoice_status_reason: '210 Refusée: REF_CT_ABSENT — le bon de commande manque',
            },
            lines: [
              {
                tracking_ref: 'DLV-7K3M9Q2XHP',
                service: 'standard',
                created_at: '2026-10-14T09:12:31.000Z',
                price_excl_tax_eur: 8.4,
                vat_eur: 1.68,
                price_eur: 10.08,
              },
            ],
            einvoice: {
              status: 'refused',
              reason: '210 Refusée: REF_CT_ABSENT — le bon de commande manque',
              status_at: '2026-11-03T08:41:00.000Z',
              platform: 'afnor',
              flow_id: '2f0c8a52-6a0e-4b7e-9d55-0c3e2b9f1a77',
              submitted_at: '2026-11-01T00:05:14.000Z',
              attempts: 1,
              last_error: null,
              history: [
                { status: 'pending', reason: null, at: '2026-11-01T00:05:12.000Z' },
                { status: 'deposited', reason: null, at: '2026-11-01T00:05:14.000Z' },
                { status: 'received', reason: '202 Reçue', at: '2026-11-01T00:20:00.000Z' },
                {
                  status: 'refused',
                  reason: '210 Refusée: REF_CT_ABSENT — le bon de commande manque',
                  at: '2026-11-03T08:41:00.000Z',
                },
              ],
            },
          },
        },
      },
      404: NO_INVOICE,
    },
  },
  opsIssueInvoices: {
    request: { october: { summary: 'Issue October', value: { month: '2026-10' } } },
    responses: {
      200: {
        issuedAndHeld: {
          summary: 'One brand invoiced, one held for its missing SIREN',
          value: {
            ok: true,
            period: '2026-10',
            issued: [
              {
                brand_id: BRAND,
                invoice: {
                  ...ISSUED_INVOICE_EXAMPLE,
                  einvoice_status: 'pending',
                  einvoice_status_reason: null,
                },
              },
            ],
            held: [
              {
                brand_id: 'brd_0b1c2d3e4f5a6b7c',
                brand_name: 'Atelier Sans Siren',
                missing: [{ field: 'siren', message: 'no SIREN' }],
                reason: HELD_REASON,
              },
            ],
          },
        },
      },
    },
  },
  opsMarkInvoicePaid: {
    request: { none: { summary: 'No body is needed; `{}` is the same', value: {} } },
    responses: {
      200: {
        paid: {
          summary: 'Paid: its payment data goes to the platform',
          value: {
            ok: true,
            brand_id: BRAND,
            invoice: { ...ISSUED_INVOICE_EXAMPLE, status: 'paid', paid_at: '2026-11-20T10:00:00.000Z' },
          },
        },
      },
      404: NO_INVOICE,
    },
    unprocessable: {
      invalid_transition: {
        summary: 'A credit note is not paid',
        message:
          'A2026-000007 is a credit note: it is not paid. It reduces what invoice F2026-000042 asks, or is refunded if that invoice is already paid.',
      },
    },
  },
  opsGetBrandCompany: {
    responses: {
      200: {
        complete: {
          summary: 'Everything an e-invoice needs',
          value: { ok: true, brand_id: BRAND, company: COMPANY, missing_for_invoicing: [] },
        },
      },
    },
  },
  opsUpdateBrandCompany: {
    request: {
      siren: {
        summary: 'Give the SIREN and the billing address',
        value: { siren: '732 829 320', billing_address: COMPANY.billing_address },
      },
    },
    responses: {
      200: {
        complete: {
          summary: 'Now it can be invoiced',
          value: { ok: true, brand_id: BRAND, company: COMPANY, missing_for_invoicing: [] },
        },
      },
      400: {
        luhn: {
          summary: 'A mistyped SIREN',
          value: errorExample('invalid_request', 'siren is not a valid SIREN (check digit)', [
            {
              field: 'siren',
              message:
                'is not a valid SIREN (check digit): its 9 digits fail the Luhn check INSEE numbers pass, so one is probably mistyped',
            },
          ]),
        },
      },
    },
  },
};
