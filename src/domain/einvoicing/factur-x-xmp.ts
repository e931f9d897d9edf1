import { createXml as create } from './xml-builder.ts';

/**
 * The Factur-X part of the PDF's XMP metadata (Factur-X 1.07, §A.2): the `fx:` properties naming the
 * embedded XML, and the PDF/A extension schema that declares them (PDF/A-3 admits only declared
 * properties). Two `rdf:Description` elements, appended inside pdfkit's `rdf:RDF` (which declares the
 * `rdf` prefix); built with xmlbuilder2, so nothing is assembled from strings.
 */
const FACTUR_X_NAMESPACE = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';
export const FACTUR_X_FILE_NAME = 'factur-x.xml';
/** fx:ConformanceLevel of the EN 16931 profile ("COMFORT" in ZUGFeRD's words). */
const FACTUR_X_CONFORMANCE = 'EN 16931';

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const EXTENSION = 'http://www.aiim.org/pdfa/ns/extension/';
const SCHEMA = 'http://www.aiim.org/pdfa/ns/schema#';
const PROPERTY = 'http://www.aiim.org/pdfa/ns/property#';

const PROPERTIES = [
  ['DocumentFileName', 'The name of the embedded XML document'],
  ['DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER'],
  ['Version', 'The actual version of the standard applying to the embedded XML document'],
  ['ConformanceLevel', 'The conformance level of the embedded XML document'],
] as const;

export function facturXXmp(): string {
  const rdf = create().ele(RDF, 'rdf:RDF');
  const extension = rdf.ele(RDF, 'rdf:Description', { 'rdf:about': '' });
  extension
    .att('xmlns:pdfaExtension', EXTENSION)
    .att('xmlns:pdfaSchema', SCHEMA)
    .att('xmlns:pdfaProperty', PROPERTY);
  const schema = extension
    .ele(EXTENSION, 'pdfaExtension:schemas')
    .ele(RDF, 'rdf:Bag')
    .ele(RDF, 'rdf:li', { 'rdf:parseType': 'Resource' });
  schema.ele(SCHEMA, 'pdfaSchema:schema').txt('Factur-X PDFA Extension Schema');
  schema.ele(SCHEMA, 'pdfaSchema:namespaceURI').txt(FACTUR_X_NAMESPACE);
  schema.ele(SCHEMA, 'pdfaSchema:prefix').txt('fx');
  const properties = schema.ele(SCHEMA, 'pdfaSchema:property').ele(RDF, 'rdf:Seq');
  for (const [name, description] of PROPERTIES) {
    const property = properties.ele(RDF, 'rdf:li', { 'rdf:parseType': 'Resource' });
    property.ele(PROPERTY, 'pdfaProperty:name').txt(name);
    property.ele(PROPERTY, 'pdfaProperty:valueType').txt('Text');
    property.ele(PROPERTY, 'pdfaProperty:category').txt('external');
    property.ele(PROPERTY, 'pdfaProperty:description').txt(description);
  }
  const fx = rdf.ele(RDF, 'rdf:Description', { 'rdf:about': '' }).att('xmlns:fx', FACTUR_X_NAMESPACE);
  fx.ele(FACTUR_X_NAMESPACE, 'fx:DocumentType').txt('INVOICE');
  fx.ele(FACTUR_X_NAMESPACE, 'fx:DocumentFileName').txt(FACTUR_X_FILE_NAME);
  fx.ele(FACTUR_X_NAMESPACE, 'fx:Version').txt('1.0');
  fx.ele(FACTUR_X_NAMESPACE, 'fx:ConformanceLevel').txt(FACTUR_X_CONFORMANCE);
  return [extension, fx].map((element) => element.toString({ prettyPrint: true })).join('\n');
}

/**
 * Whether a value may go into pdfkit's document information: pdfkit copies Title, Author and
 * Subject into the XMP without escaping them, so a name with `&` or `<` would break the metadata a
 * PDF/A reader checks. Such a value is left out (the page itself still prints it).
 */
export const safeForXmp = (value: string): boolean => !/[<>&]/.test(value);
