/**
 * Just enough XML for the Webservice: PrestaShop reads every write as
 * `<prestashop><order_carrier><id>5</id><tracking_number><![CDATA[X]]></tracking_number>…</order_carrier></prestashop>`
 * (SimpleXMLElement: anything else is "XML error : String could not be parsed as XML", code 127) and
 * writes XML output when no JSON was asked for.
 */

interface Element {
  name: string;
  children: Element[];
  text: string;
}

const TOKEN =
  /<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)|(<)/g;

const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** Parses a document; throws (like SimpleXMLElement) on anything that is not well-formed. */
function parseXml(text: string): Element {
  const body = text.replace(/^\uFEFF?\s*<\?xml[^?]*\?>/, '').trim();
  const root: Element = { name: '#document', children: [], text: '' };
  const stack = [root];
  for (const match of body.matchAll(TOKEN)) {
    const [, cdata, closing, name, , selfClosing, chars, stray] = match;
    const top = stack.at(-1)!;
    if (stray !== undefined) throw new Error("Start tag expected, '<' not found");
    if (cdata !== undefined) top.text += cdata;
    else if (chars !== undefined) {
      if (stack.length === 1 && chars.trim()) throw new Error("Start tag expected, '<' not found");
      top.text += decode(chars);
    } else if (closing) {
      if (top.name !== name || stack.length === 1)
        throw new Error(`Opening and ending tag mismatch: ${name}`);
      stack.pop();
    } else {
      const element: Element = { name: name!, children: [], text: '' };
      top.children.push(element);
      if (!selfClosing) stack.push(element);
    }
  }
  if (stack.length !== 1 || root.children.length !== 1) throw new Error('Premature end of data');
  return root.children[0]!;
}

/** The entities of a write body: each child of <prestashop>, its fields as strings (first language for i18n). */
export function entitiesOf(text: string): { name: string; fields: Record<string, string> }[] {
  const root = parseXml(text);
  return root.children.map((entity) => ({
    name: entity.name,
    fields: Object.fromEntries(
      entity.children
        .filter((field) => field.name !== 'associations')
        .map((field) => [field.name, (field.children[0]?.text ?? field.text).trim()]),
    ),
  }));
}

const cdata = (value: unknown) => `<![CDATA[${String(value)}]]>`;

const isI18n = (value: unknown[]) =>
  value.length > 0 && value.every((v) => v && typeof v === 'object' && Object.keys(v).join() === 'id,value');

function render(name: string, value: unknown): string {
  if (Array.isArray(value) && isI18n(value))
    return `<${name}>${value.map((v: any) => `<language id="${v.id}">${cdata(v.value)}</language>`).join('')}</${name}>`;
  if (Array.isArray(value)) {
    const item = name === 'errors' ? 'error' : name.replace(/s$/, '');
    return `<${name}>${value.map((v) => render(item, v)).join('')}</${name}>`;
  }
  if (value && typeof value === 'object')
    return `<${name}>${Object.entries(value)
      .map(([k, v]) => render(k, v))
      .join('')}</${name}>`;
  return `<${name}>${cdata(value)}</${name}>`;
}

/** XML output, shaped as PrestaShop's (i18n fields as <language id="1">). */
export function renderXml(content: Record<string, unknown>): string {
  const inner = Object.entries(content)
    .map(([k, v]) => render(k, v))
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<prestashop xmlns:xlink="http://www.w3.org/1999/xlink">${inner}</prestashop>\n`;
}
