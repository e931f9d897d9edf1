import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFObject,
  PDFRawStream,
  PDFRef,
} from 'pdf-lib';
import { create } from 'xmlbuilder2';

/**
 * What a Factur-X's PDF/A-3 structure must hold, checked on the bytes with pdf-lib (a parser of its
 * own, not the library that wrote them): the embedded `factur-x.xml` (a file specification with
 * AFRelationship Data or Alternative, listed in the catalog's /AF array and its EmbeddedFiles, of
 * subtype text/xml), the XMP metadata (pdfaid part 3, the fx: properties and the extension schema
 * declaring them), every font embedded, and an output intent with its ICC profile. Returns the
 * problems found (none: the structure holds) and the embedded XML.
 */
export async function facturXStructure(
  pdf: Buffer,
): Promise<{ problems: string[]; xml: string | null; xmp: string | null }> {
  const problems: string[] = [];
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const context = doc.context;
  const resolve = (object: PDFObject | undefined): PDFObject | undefined =>
    object instanceof PDFRef ? context.lookup(object) : object;
  const dict = (object: PDFObject | undefined) => {
    const value = resolve(object);
    return value instanceof PDFDict ? value : undefined;
  };
  const text = (object: PDFObject | undefined) => {
    const value = resolve(object);
    if (!value) return undefined;
    const decoded = (value as { decodeText?: () => string }).decodeText?.();
    return decoded ?? value.toString();
  };
  const streamText = (object: PDFObject | undefined) => {
    const value = resolve(object);
    return value instanceof PDFRawStream
      ? Buffer.from(decodePDFRawStream(value).decode()).toString('utf8')
      : undefined;
  };

  if (!pdf.subarray(0, 8).toString('latin1').startsWith('%PDF-1.7'))
    problems.push('not a PDF 1.7 file (PDF/A-3 is based on it)');
  const catalog = doc.catalog;

  // The embedded XML.
  let xml: string | null = null;
  const af = resolve(catalog.get(PDFName.of('AF')));
  if (!(af instanceof PDFArray) || af.size() === 0) problems.push('no /AF array in the catalog');
  else {
    const specs = af.asArray().map(dict);
    const spec = specs.find((s) => text(s?.get(PDFName.of('F'))) === 'factur-x.xml');
    if (!spec) problems.push('no file specification named factur-x.xml in /AF');
    else {
      const relationship = spec.get(PDFName.of('AFRelationship'))?.toString();
      if (relationship !== '/Data' && relationship !== '/Alternative')
        problems.push(`AFRelationship is ${relationship}, not /Data or /Alternative`);
      if (text(spec.get(PDFName.of('UF'))) !== 'factur-x.xml')
        problems.push('the file specification has no /UF factur-x.xml');
      const ef = dict(spec.get(PDFName.of('EF')));
      const file = resolve(ef?.get(PDFName.of('F')));
      if (!(file instanceof PDFRawStream))
        problems.push('the file specification has no embedded file stream');
      else {
        const subtype = file.dict.get(PDFName.of('Subtype'))?.toString();
        if (subtype !== '/text#2Fxml')
          problems.push(`the embedded file's /Subtype is ${subtype}, not text/xml`);
        xml = streamText(file) ?? null;
      }
    }
  }
  const names = dict(catalog.get(PDFName.of('Names')));
  const embedded = dict(names?.get(PDFName.of('EmbeddedFiles')));
  const tree = resolve(embedded?.get(PDFName.of('Names')));
  if (!(tree instanceof PDFArray) || !tree.asArray().some((entry) => text(entry) === 'factur-x.xml'))
    problems.push('factur-x.xml is not in the EmbeddedFiles name tree');

  // XMP.
  const xmp = streamText(catalog.get(PDFName.of('Metadata'))) ?? null;
  if (!xmp) problems.push('no XMP metadata stream');
  else {
    const root = create(xmp.replace(/^[\s\S]*?(<x:xmpmeta)/, '$1').replace(/(<\/x:xmpmeta>)[\s\S]*$/, '$1'))
      .node as unknown as {
      getElementsByTagNameNS(ns: string, name: string): ArrayLike<{ textContent: string | null }>;
    };
    const value = (ns: string, name: string) =>
      Array.from(root.getElementsByTagNameNS(ns, name), (n) => n.textContent?.trim());
    const PDFAID = 'http://www.aiim.org/pdfa/ns/id/';
    const FX = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';
    const SCHEMA = 'http://www.aiim.org/pdfa/ns/schema#';
    if (value(PDFAID, 'part')[0] !== '3') problems.push('XMP pdfaid:part is not 3');
    if (!['A', 'B', 'U'].includes(value(PDFAID, 'conformance')[0] ?? ''))
      problems.push('XMP pdfaid:conformance missing');
    if (value(FX, 'DocumentFileName')[0] !== 'factur-x.xml')
      problems.push('XMP fx:DocumentFileName is not factur-x.xml');
    if (value(FX, 'DocumentType')[0] !== 'INVOICE') problems.push('XMP fx:DocumentType is not INVOICE');
    if (value(FX, 'Version')[0] !== '1.0') problems.push('XMP fx:Version is not 1.0');
    if (value(FX, 'ConformanceLevel')[0] !== 'EN 16931')
      problems.push('XMP fx:ConformanceLevel is not EN 16931');
    if (!value(SCHEMA, 'namespaceURI').includes(FX) || !value(SCHEMA, 'prefix').includes('fx'))
      problems.push('no PDF/A extension schema declares the fx: properties');
  }

  // Output intent.
  const intents = resolve(catalog.get(PDFName.of('OutputIntents')));
  const intent = intents instanceof PDFArray ? dict(intents.get(0)) : undefined;
  if (!intent) problems.push('no OutputIntents');
  else {
    if (intent.get(PDFName.of('S'))?.toString() !== '/GTS_PDFA1')
      problems.push('the output intent is not GTS_PDFA1');
    const profile = resolve(intent.get(PDFName.of('DestOutputProfile')));
    if (!(profile instanceof PDFRawStream)) problems.push('the output intent has no ICC profile');
  }

  // Fonts: each used on a page has its program embedded.
  const fontsSeen = new Set<string>();
  for (const page of doc.getPages()) {
    const fonts = dict(dict(page.node.get(PDFName.of('Resources')))?.get(PDFName.of('Font')));
    for (const [, ref] of fonts?.entries() ?? []) {
      const font = dict(ref);
      if (!font) continue;
      const base = font.get(PDFName.of('BaseFont'))?.toString() ?? '?';
      fontsSeen.add(base);
      const descendant =
        font.get(PDFName.of('Subtype'))?.toString() === '/Type0'
          ? dict((resolve(font.get(PDFName.of('DescendantFonts'))) as PDFArray | undefined)?.get(0))
          : font;
      const descriptor = dict(descendant?.get(PDFName.of('FontDescriptor')));
      const embeddedProgram = ['FontFile', 'FontFile2', 'FontFile3'].some((key) =>
        descriptor?.get(PDFName.of(key)),
      );
      if (!embeddedProgram) problems.push(`font ${base} is not embedded`);
    }
  }
  if (fontsSeen.size === 0) problems.push('no font found on the pages');
  return { problems, xml, xmp };
}
