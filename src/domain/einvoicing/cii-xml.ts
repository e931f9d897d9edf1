import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { EInvoiceDocument, EInvoiceParty } from './e-invoice.ts';
import type { PostalAddress } from './postal-address.ts';
import { createXml as create } from './xml-builder.ts';

/**
 * The document as UN/CEFACT Cross Industry Invoice D16B, Factur-X profile EN 16931 (the
 * `factur-x.xml` embedded in the PDF). Built with a real XML builder: every value is escaped by it,
 * and the element order is the schema's (test/einvoicing-validation.test.ts checks each document
 * against the official XSD and the EN 16931 Schematron).
 */
const EN16931_GUIDELINE = 'urn:cen.eu:en16931:2017';

const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/** Cents as the decimal the XML carries: 123456 → "1234.56". */
export function decimalAmount(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "2026-11-30" → "20261130" (format 102). */
const date102 = (isoDate: string) => isoDate.replaceAll('-', '');

export function ciiXml(doc: EInvoiceDocument): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS.rsm, 'rsm:CrossIndustryInvoice', {
    'xmlns:rsm': NS.rsm,
    'xmlns:ram': NS.ram,
    'xmlns:qdt': NS.qdt,
    'xmlns:udt': NS.udt,
  });
  const ram = (parent: XMLBuilder, name: string, text?: string, attributes?: Record<string, string>) => {
    const element = parent.ele(NS.ram, `ram:${name}`, attributes);
    if (text !== undefined) element.txt(text);
    return element;
  };
  const dateTime = (parent: XMLBuilder, name: string, isoDate: string) =>
    ram(parent, name).ele(NS.udt, 'udt:DateTimeString', { format: '102' }).txt(date102(isoDate));
  const money = (parent: XMLBuilder, name: string, cents: number, currency = false) =>
    ram(parent, name, decimalAmount(cents), currency ? { currencyID: doc.currency } : undefined);

  const context = root.ele(NS.rsm, 'rsm:ExchangedDocumentContext');
  ram(ram(context, 'BusinessProcessSpecifiedDocumentContextParameter'), 'ID', doc.businessProcess);
  ram(ram(context, 'GuidelineSpecifiedDocumentContextParameter'), 'ID', EN16931_GUIDELINE);

  const header = root.ele(NS.rsm, 'rsm:ExchangedDocument');
  ram(header, 'ID', doc.number);
  ram(header, 'TypeCode', doc.typeCode);
  dateTime(header, 'IssueDateTime', doc.issueDate);
  for (const note of doc.notes) {
    const included = ram(header, 'IncludedNote');
    ram(included, 'Content', note.text);
    ram(included, 'SubjectCode', note.subjectCode);
  }

  const transaction = root.ele(NS.rsm, 'rsm:SupplyChainTradeTransaction');
  for (const line of doc.lines) {
    const item = ram(transaction, 'IncludedSupplyChainTradeLineItem');
    const lineDocument = ram(item, 'AssociatedDocumentLineDocument');
    ram(lineDocument, 'LineID', line.id);
    // BT-127 (EN 16931 allows the line note's content only, no subject code): the order's CO₂e.
    if (line.note !== null) ram(ram(lineDocument, 'IncludedNote'), 'Content', line.note);
    const product = ram(item, 'SpecifiedTradeProduct');
    ram(product, 'SellerAssignedID', line.trackingRef);
    ram(product, 'Name', line.name);
    money(
      ram(ram(item, 'SpecifiedLineTradeAgreement'), 'NetPriceProductTradePrice'),
      'ChargeAmount',
      line.netCents,
    );
    ram(ram(item, 'SpecifiedLineTradeDelivery'), 'BilledQuantity', '1', { unitCode: 'C62' });
    const settlement = ram(item, 'SpecifiedLineTradeSettlement');
    const tax = ram(settlement, 'ApplicableTradeTax');
    ram(tax, 'TypeCode', 'VAT');
    ram(tax, 'CategoryCode', 'S');
    ram(tax, 'RateApplicablePercent', String(line.ratePercent));
    const linePeriod = ram(settlement, 'BillingSpecifiedPeriod');
    dateTime(linePeriod, 'StartDateTime', line.date);
    dateTime(linePeriod, 'EndDateTime', line.date);
    money(ram(settlement, 'SpecifiedTradeSettlementLineMonetarySummation'), 'LineTotalAmount', line.netCents);
  }

  const agreement = ram(transaction, 'ApplicableHeaderTradeAgreement');
  ram(agreement, 'BuyerReference', doc.buyer.reference);
  party(ram, ram(agreement, 'SellerTradeParty'), doc.seller);
  party(ram, ram(agreement, 'BuyerTradeParty'), doc.buyer);

  const delivery = ram(transaction, 'ApplicableHeaderTradeDelivery');
  if (doc.deliverTo)
    address(ram, ram(ram(delivery, 'ShipToTradeParty'), 'PostalTradeAddress'), doc.deliverTo);

  const settlement = ram(transaction, 'ApplicableHeaderTradeSettlement');
  ram(settlement, 'InvoiceCurrencyCode', doc.currency);
  // A credit note is refunded or set off: it names no account to pay into.
  if (doc.typeCode === '380') {
    const means = ram(settlement, 'SpecifiedTradeSettlementPaymentMeans');
    // 58: SEPA credit transfer, with the account (BR-61); 30 (credit transfer) when none is set.
    ram(means, 'TypeCode', doc.seller.iban ? '58' : '30');
    ram(means, 'Information', 'Virement bancaire');
    if (doc.seller.iban) {
      ram(ram(means, 'PayeePartyCreditorFinancialAccount'), 'IBANID', doc.seller.iban);
      if (doc.seller.bic)
        ram(ram(means, 'PayeeSpecifiedCreditorFinancialInstitution'), 'BICID', doc.seller.bic);
    }
  }
  for (const rate of doc.vatBreakdown) {
    const tax = ram(settlement, 'ApplicableTradeTax');
    money(tax, 'CalculatedAmount', rate.vatCents);
    ram(tax, 'TypeCode', 'VAT');
    money(tax, 'BasisAmount', rate.basisCents);
    ram(tax, 'CategoryCode', rate.categoryCode);
    ram(tax, 'DueDateTypeCode', doc.vatDueDateCode);
    ram(tax, 'RateApplicablePercent', String(rate.ratePercent));
  }
  const period = ram(settlement, 'BillingSpecifiedPeriod');
  dateTime(period, 'StartDateTime', doc.period.start);
  dateTime(period, 'EndDateTime', doc.period.end);
  if (doc.paymentTerms !== null || doc.dueDate !== null) {
    const terms = ram(settlement, 'SpecifiedTradePaymentTerms');
    if (doc.paymentTerms !== null) ram(terms, 'Description', doc.paymentTerms);
    if (doc.dueDate !== null) dateTime(terms, 'DueDateDateTime', doc.dueDate);
  }
  const sums = ram(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  money(sums, 'LineTotalAmount', doc.totals.lineTotalCents);
  money(sums, 'TaxBasisTotalAmount', doc.totals.taxBasisCents);
  money(sums, 'TaxTotalAmount', doc.totals.vatCents, true);
  money(sums, 'GrandTotalAmount', doc.totals.grandTotalCents);
  money(sums, 'DuePayableAmount', doc.totals.duePayableCents);
  if (doc.precedingInvoice) {
    const preceding = ram(settlement, 'InvoiceReferencedDocument');
    ram(preceding, 'IssuerAssignedID', doc.precedingInvoice.number);
    ram(preceding, 'FormattedIssueDateTime')
      .ele(NS.qdt, 'qdt:DateTimeString', { format: '102' })
      .txt(date102(doc.precedingInvoice.issueDate));
  }
  return root.end({ prettyPrint: true });
}

type Ram = (
  parent: XMLBuilder,
  name: string,
  text?: string,
  attributes?: Record<string, string>,
) => XMLBuilder;

function party(ram: Ram, element: XMLBuilder, who: EInvoiceParty & { email?: string | null }): void {
  // BT-29/46: the establishment (SIRET, scheme 0009) when known.
  if (who.siret) ram(element, 'GlobalID', who.siret, { schemeID: '0009' });
  ram(element, 'Name', who.name);
  ram(ram(element, 'SpecifiedLegalOrganization'), 'ID', who.siren, { schemeID: '0002' });
  address(ram, ram(element, 'PostalTradeAddress'), who.address);
  // BT-34/49: the electronic address the French platforms route on (scheme 0225: SIREN-based).
  ram(ram(element, 'URIUniversalCommunication'), 'URIID', who.siren, { schemeID: '0225' });
  if (who.vatNumber) ram(ram(element, 'SpecifiedTaxRegistration'), 'ID', who.vatNumber, { schemeID: 'VA' });
}

function address(ram: Ram, element: XMLBuilder, where: PostalAddress): void {
  ram(element, 'PostcodeCode', where.postcode);
  const [one, two, three] = where.lines;
  if (one) ram(element, 'LineOne', one);
  if (two) ram(element, 'LineTwo', two);
  if (three) ram(element, 'LineThree', three);
  ram(element, 'CityName', where.city);
  ram(element, 'CountryID', where.country);
}
