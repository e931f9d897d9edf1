import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { decimalAmount } from '../../domain/einvoicing/cii-xml.ts';
import type { EInvoiceStatus } from '../../domain/einvoicing/einvoice-status.ts';
import type { PaymentRecord } from '../../domain/einvoicing/ports.ts';
import { createXml as create } from '../../domain/einvoicing/xml-builder.ts';

/**
 * CDAR (UN/CEFACT Cross Domain Acknowledgement And Response), the French life-cycle message
 * (XP Z12-012 / Z12-014): the statuses a platform sends about our invoices, and the one we send when
 * a service invoice is paid, 212 "Encaissée" with the amounts cashed per VAT rate (the payment data
 * the tax administration needs when VAT is due on receipt).
 */
const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
};

/** The life-cycle codes (XP Z12-012, "statuts du cycle de vie") and what they mean here. */
const STATUS_OF_CODE: Record<string, EInvoiceStatus> = {
  '200': 'deposited', // Déposée
  '201': 'deposited', // Émise par la plateforme
  '202': 'received', // Reçue par la plateforme du destinataire
  '203': 'received', // Mise à disposition
  '204': 'accepted', // Prise en charge
  '205': 'accepted', // Approuvée
  '206': 'accepted', // Approuvée partiellement
  '207': 'received', // En litige: not refused yet; the reason is kept
  '208': 'received', // Suspendue
  '209': 'accepted', // Complétée
  '210': 'refused', // Refusée
  '211': 'paid', // Paiement transmis
  '212': 'paid', // Encaissée
  '213': 'rejected', // Rejetée
};

const stamp204 = (at: Date) => at.toISOString().replace(/[-:T]/g, '').slice(0, 14);

export function paymentCdar(record: PaymentRecord, at: Date): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(
    NS.rsm,
    'rsm:CrossDomainAcknowledgementAndResponse',
    {
      'xmlns:rsm': NS.rsm,
      'xmlns:ram': NS.ram,
      'xmlns:udt': NS.udt,
      'xmlns:qdt': NS.qdt,
    },
  );
  const ram = (parent: XMLBuilder, name: string, text?: string, attributes?: Record<string, string>) => {
    const element = parent.ele(NS.ram, `ram:${name}`, attributes);
    if (text !== undefined) element.txt(text);
    return element;
  };
  const udtDate = (parent: XMLBuilder, name: string, value: string, format: '102' | '204') =>
    ram(parent, name).ele(NS.udt, 'udt:DateTimeString', { format }).txt(value);
  const party = (parent: XMLBuilder, name: string, who: { siren: string; name: string }, role: string) => {
    const element = ram(parent, name);
    ram(element, 'GlobalID', who.siren, { schemeID: '0002' });
    ram(element, 'Name', who.name);
    ram(element, 'RoleCode', role);
  };
  const context = root.ele(NS.rsm, 'rsm:ExchangedDocumentContext');
  ram(ram(context, 'BusinessProcessSpecifiedDocumentContextParameter'), 'ID', 'REGULATED');
  ram(ram(context, 'GuidelineSpecifiedDocumentContextParameter'), 'ID', 'urn.cpro.gouv.fr:1p0:CDV:invoice');
  const exchanged = root.ele(NS.rsm, 'rsm:ExchangedDocument');
  ram(exchanged, 'ID', `${record.invoiceNumber}_212_${stamp204(at)}`);
  ram(exchanged, 'Name', 'Encaissée');
  udtDate(exchanged, 'IssueDateTime', stamp204(at), '204');
  ram(ram(exchanged, 'SenderTradeParty'), 'RoleCode', 'SE');
  party(exchanged, 'IssuerTradeParty', record.seller, 'SE');
  party(exchanged, 'RecipientTradeParty', record.buyer, 'BY');
  const ack = root.ele(NS.rsm, 'rsm:AcknowledgementDocument');
  ram(ram(ack, 'MultipleReferencesIndicator'), 'Indicator', 'false');
  ram(ack, 'TypeCode', '23');
  udtDate(ack, 'IssueDateTime', stamp204(at), '204');
  const referenced = ram(ack, 'ReferenceReferencedDocument');
  ram(referenced, 'IssuerAssignedID', record.invoiceNumber);
  ram(referenced, 'StatusCode', '47');
  ram(referenced, 'TypeCode', '380');
  ram(referenced, 'FormattedIssueDateTime')
    .ele(NS.qdt, 'qdt:DateTimeString', { format: '102' })
    .txt(record.invoiceIssueDate.replaceAll('-', ''));
  ram(referenced, 'ProcessConditionCode', '212');
  ram(referenced, 'ProcessCondition', 'Encaissée');
  ram(ram(referenced, 'IssuerTradeParty'), 'GlobalID', record.seller.siren, { schemeID: '0002' });
  const status = ram(referenced, 'SpecifiedDocumentStatus');
  // One characteristic per VAT rate: the amount cashed (MEN), its rate and the day it was paid.
  for (const amount of record.amounts) {
    const characteristic = ram(status, 'SpecifiedDocumentCharacteristic');
    ram(characteristic, 'TypeCode', 'MEN');
    ram(characteristic, 'ValueAmount', decimalAmount(amount.totalCents), { currencyID: record.currency });
    ram(characteristic, 'ValuePercent', String(amount.ratePercent));
    udtDate(characteristic, 'ValueDateTime', record.paidOn.replaceAll('-', ''), '102');
  }
  return root.end({ prettyPrint: true });
}

/** What a platform's CDAR says of one of our invoices: its number, the status and the reason. */
export interface LifecycleMessage {
  invoiceNumber: string;
  code: string;
  status: EInvoiceStatus | null;
  label: string | null;
  reason: string | null;
  at: Date | null;
}

export function readLifecycleCdar(xml: string): LifecycleMessage {
  // xmlbuilder2 parses into a DOM: elements found by namespace, whatever prefixes the sender chose.
  const root = create(xml).node as unknown as {
    getElementsByTagNameNS(ns: string, name: string): ArrayLike<{ textContent: string | null }>;
  };
  const texts = (name: string, ns = NS.ram) =>
    Array.from(root.getElementsByTagNameNS(ns, name), (node) => (node.textContent ?? '').trim());
  const first = (name: string) => texts(name)[0] ?? null;
  const invoiceNumber = first('IssuerAssignedID');
  const code = first('ProcessConditionCode');
  if (!invoiceNumber || !code) throw new Error('a CDAR without its invoice number or status code');
  const reasons = [...texts('ReasonCode'), ...texts('Reason')].filter((text) => text !== '');
  const stamp = texts('DateTimeString', NS.udt)[0];
  const at =
    stamp && /^\d{14}$/.test(stamp)
      ? new Date(
          `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(8, 10)}:${stamp.slice(10, 12)}:${stamp.slice(12, 14)}Z`,
        )
      : null;
  return {
    invoiceNumber,
    code,
    status: STATUS_OF_CODE[code] ?? null,
    label: first('ProcessCondition'),
    reason: reasons.length > 0 ? reasons.join(' — ') : null,
    at,
  };
}
