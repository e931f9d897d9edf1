import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import { formatEurosFr } from './format-fr.ts';
import { DEFAULT_SELLER, type InvoicePdfData, renderInvoicePdf } from './invoice-pdf.ts';
import { lineFromOrder, totalsOf } from './invoice-totals.ts';

function invoiceWith(lineCount: number, overrides: Partial<InvoicePdfData> = {}): InvoicePdfData {
  const services = ['express', 'standard', 'economy'];
  const lines = Array.from({ length: lineCount }, (_, i) =>
    lineFromOrder({
      trackingRef: `DLV-${i.toString(32).toUpperCase().padStart(10, '0')}`,
      service: services[i % 3] ?? 'standard',
      // Spread over November, some just after midnight Paris time (23:xx UTC the day before).
      createdAt: new Date(Date.UTC(2026, 10, 1 + (i % 29), i % 2 === 0 ? 9 : 23, 15)),
      priceExclTaxCents: 690 + ((i * 7919) % 250_000),
    }),
  );
  return {
    number: 'F2026-000042',
    period: '2026-11',
    issuedAt: new Date('2026-12-01T05:00:00Z'),
    dueDate: '2026-12-31',
    status: 'issued',
    seller: DEFAULT_SELLER,
    buyer: {
      name: 'Maison Lumière SARL',
      id: 'brd_9a8b7c6d5e4f3a2b',
      address: '3 rue de Rivoli\n75004 Paris',
    },
    lines,
    totals: totalsOf(lines),
    currency: 'EUR',
    ...overrides,
  };
}

async function textOf(pdf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** Mentions every issued invoice carries, wherever the layout puts them. */
function expectMandatoryMentions(text: string, invoice: InvoicePdfData): void {
  expect(text).toContain('FACTURE');
  expect(text).toContain('N° F2026-000042');
  expect(text).toContain(DEFAULT_SELLER.name);
  expect(text).toContain('SIREN : 912 345 678');
  expect(text).toContain(`TVA intracommunautaire : ${DEFAULT_SELLER.vatNumber}`);
  expect(text).toContain('Maison Lumière SARL');
  expect(text).toContain('brd_9a8b7c6d5e4f3a2b');
  expect(text).toContain('75004 Paris');
  expect(text).toContain('Date de facture : 01/12/2026');
  expect(text).toContain('Période : novembre 2026');
  expect(text).toContain('Échéance : 31/12/2026');
  expect(text).toContain(`Total HT ${formatEurosFr(invoice.totals.totalExclTaxCents)}`);
  expect(text).toContain(`TVA 20 % ${formatEurosFr(invoice.totals.vatCents)}`);
  expect(text).toContain(`Total TTC ${formatEurosFr(invoice.totals.totalCents)}`);
  expect(text).toContain('trois fois le taux');
  expect(text).toMatch(/indemnité forfaitaire pour frais de recouvrement de 40 €/);
  expect(text).toContain('L441-10');
  expect(text).toContain("Pas d'escompte pour paiement anticipé");
  expect(text).toContain('Page 1/');
  for (const line of invoice.lines) expect(text).toContain(line.trackingRef);
}

describe('renderInvoicePdf', () => {
  it('renders a short invoice on one page with every mandatory mention', async () => {
    const invoice = invoiceWith(3);
    // The first delivered (its CO₂e known), the others not yet.
    invoice.lines[0] = { ...invoice.lines[0]!, co2eGrams: 1264 };
    const pdf = await renderInvoicePdf(invoice);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await textOf(pdf);
    expectMandatoryMentions(text, invoice);
    expect(text).toContain('Page 1/1');
    // Line detail: Paris date (23:15 UTC on 2 Nov is already 3 Nov in Paris), service, CO₂e in
    // grams ("—" until delivered) and the three amounts.
    const second = invoice.lines[1]!;
    expect(text).toContain(
      `${second.trackingRef} 03/11/2026 Standard — ${formatEurosFr(second.priceExclTaxCents)} ` +
        `${formatEurosFr(second.vatCents)} ${formatEurosFr(second.priceCents)}`,
    );
    expect(text).toContain(`${invoice.lines[0]!.trackingRef} 01/11/2026 Express 1 264 `);
    expect(text).toContain('CO₂e du transport 1 264 g CO₂e');
    expect(text.replace(/\s+/g, ' ')).toContain(
      "Information GES (Code des transports, art. L1431-3) : 1 264 g CO₂e (grammes d'équivalent CO₂) pour les 1 livraison(s)",
    );
    expect(text).not.toContain('BROUILLON');
  });

  it('paginates 250 lines with a repeated header and page numbers', async () => {
    const invoice = invoiceWith(250);
    expect(invoice.totals.totalExclTaxCents).toBeGreaterThan(100_000_00); // thousands separators in play
    const text = await textOf(await renderInvoicePdf(invoice));
    expectMandatoryMentions(text, invoice);
    const pageCount = Number(/Page 1\/(\d+)/.exec(text)?.[1]);
    expect(pageCount).toBeGreaterThanOrEqual(5);
    for (let page = 1; page <= pageCount; page++) expect(text).toContain(`Page ${page}/${pageCount}`);
    expect(text.match(/Référence Date Service CO₂e \(g\) HT TVA TTC/g)).toHaveLength(pageCount);
    expect(text.match(/\(suite\)/g)).toHaveLength(pageCount - 1);
    // Each line exactly once: none lost or duplicated at a page break.
    for (const line of invoice.lines) expect(text.split(line.trackingRef)).toHaveLength(2);
  });

  it('marks a draft as not a valid invoice and prints no number', async () => {
    const invoice = invoiceWith(3, { status: 'draft', number: 'F2026-000099' });
    const text = await textOf(await renderInvoicePdf(invoice));
    expect(text).toContain('PROFORMA / BROUILLON');
    expect(text).toContain('ne vaut pas facture (not a valid invoice)');
    expect(text).toContain('N° —');
    expect(text).not.toContain('F2026-000099');
    expect(text).not.toMatch(/F\d{4}-\d{6}/);
    expect(text).toContain(`Total TTC ${formatEurosFr(invoice.totals.totalCents)}`);
  });

  it('renders an invoice with no lines and no buyer address', async () => {
    const invoice = invoiceWith(0, {
      buyer: { name: 'Atelier Vide', id: 'brd_0000000000000000', address: null },
    });
    const text = await textOf(await renderInvoicePdf(invoice));
    expect(text).toContain('Total TTC 0,00 €');
    expect(text).toContain('Page 1/1');
  });

  it('renders a credit note with its number, the corrected invoice and negative totals', async () => {
    const credited = invoiceWith(1).lines[0]!;
    const line = {
      ...credited,
      priceExclTaxCents: -credited.priceExclTaxCents,
      vatCents: -credited.vatCents,
      priceCents: -credited.priceCents,
    };
    const note = invoiceWith(0, {
      number: 'A2026-000003',
      issuedAt: new Date('2026-12-03T10:00:00Z'),
      lines: [line],
      totals: totalsOf([line]),
      creditNote: { invoiceNumber: 'F2026-000042', invoiceIssuedAt: new Date('2026-12-01T05:00:00Z') },
    });
    const text = await textOf(await renderInvoicePdf(note));
    expect(text).toContain("FACTURE D'AVOIR");
    expect(text).toContain('CREDIT NOTE');
    expect(text).toContain('N° A2026-000003');
    expect(text).toContain("Date de l'avoir : 03/12/2026");
    expect(text).toContain('Avoir sur la facture N° F2026-000042 du 01/12/2026');
    expect(text).toContain('Période de la facture : novembre 2026');
    expect(text).toContain('Livraisons annulées, créditées : 1');
    expect(line.priceCents).toBeLessThan(0);
    expect(text).toContain(`Total HT ${formatEurosFr(line.priceExclTaxCents)}`);
    expect(text).toContain(`TVA 20 % ${formatEurosFr(line.vatCents)}`);
    expect(text).toContain(`Total TTC ${formatEurosFr(line.priceCents)}`);
    expect(text).toContain(line.trackingRef);
    // The issuer's identity and the mentions printed on every invoice are there too.
    for (const mention of [
      'SIREN : 912 345 678',
      `TVA intracommunautaire : ${DEFAULT_SELLER.vatNumber}`,
      'brd_9a8b7c6d5e4f3a2b',
      'trois fois le taux',
      'L441-10',
      'Page 1/1',
    ])
      expect(text).toContain(mention);
    expect(text).not.toContain('Échéance');
    expect(text).not.toContain('Date de facture :');
  });

  it('is byte-for-byte deterministic for the same data', async () => {
    const invoice = invoiceWith(20);
    const [a, b] = await Promise.all([renderInvoicePdf(invoice), renderInvoicePdf(invoice)]);
    expect(a.equals(b)).toBe(true);
  });
});
