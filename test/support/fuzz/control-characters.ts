/**
 * NUL and the other C0 control characters in every text input: PostgreSQL cannot store U+0000 in
 * text, so a NUL that reaches a query is a 500; the others are never meant to be in a field or a
 * query parameter. Covers the API's string inputs (body properties, query and path parameters) and,
 * for the account area, the fields of every form its pages show and the query parameters they use.
 */
import type { RequestSpec } from './cases.ts';
import { type Schema, type SchemaToolkit, typesOf } from './json-schema.ts';
import type { Operation } from './openapi.ts';

/** Texts that must be refused wherever they are sent: each carries a NUL. */
const NUL_TEXTS = ['\u0000', 'a\u0000b', 'Acme\u0000'];
/** C0 controls besides NUL (tab, line feed and carriage return are ordinary text in a form). */
const OTHER_CONTROL_TEXTS = ['\u0001', 'x\u0007y', '\u001b[31mred', 'a\bb', '\u000b', '\u001f'];
export const CONTROL_TEXTS = [...NUL_TEXTS, ...OTHER_CONTROL_TEXTS];

export const hasNul = (text: string) => text.includes('\u0000');
/** What the server refuses in a form field or a query/path parameter: C0 controls but tab, LF and CR. */
export const refusedInForms = (text: string) =>
  [...text].some((c) => c.charCodeAt(0) < 0x20 && c !== '\t' && c !== '\n' && c !== '\r');

export interface TextField {
  in: 'body' | 'query' | 'path';
  name: string;
}

/** Every input of `op` that admits a string (headers aside: Node's HTTP parser refuses controls there). */
export function stringFieldsOf(tk: SchemaToolkit, op: Operation): TextField[] {
  const isText = (schema: Schema) => {
    const types = typesOf(tk, schema);
    if (types.has('string')) return true;
    const items = tk.deref(schema).items;
    return types.has('array') && items !== undefined && typesOf(tk, items).has('string');
  };
  const fields: TextField[] = op.parameters
    .filter((p) => (p.in === 'query' || p.in === 'path') && isText(p.schema))
    .map((p) => ({ in: p.in as 'query' | 'path', name: p.name }));
  const body = op.body?.schema ? tk.deref(op.body.schema) : null;
  for (const [name, schema] of Object.entries<Schema>(body?.properties ?? {}))
    if (isText(schema)) fields.push({ in: 'body', name });
  return fields;
}

/** `spec` with `field` set to `text` (an array field to `[text]`); null when the spec has no JSON object body. */
export function withText(
  tk: SchemaToolkit,
  op: Operation,
  spec: RequestSpec,
  field: TextField,
  text: string,
): RequestSpec | null {
  if (field.in === 'body') {
    const body = spec.body;
    if (body.kind !== 'json' || !body.value || typeof body.value !== 'object' || Array.isArray(body.value))
      return null;
    const schema = tk.deref(op.body!.schema!).properties[field.name];
    const value = typesOf(tk, schema).has('string') ? text : [text];
    return { ...spec, body: { ...body, value: { ...body.value, [field.name]: value } } };
  }
  if (field.in === 'query')
    return { ...spec, query: [...spec.query.filter(([k]) => k !== field.name), [field.name, text]] };
  return { ...spec, pathParams: { ...spec.pathParams, [field.name]: text } };
}

export interface HtmlForm {
  /** The page the form was found on. */
  page: string;
  action: string;
  method: 'GET' | 'POST';
  /** Every named control with the value the page gives it (a select's chosen option, a textarea's text). */
  fields: [string, string][];
  /** The names of the controls a person types into (text inputs and text areas), not those chosen or hidden. */
  typed: string[];
}

const TYPED_INPUTS = new Set(['text', 'email', 'password', 'search', 'url', 'tel', 'number']);

const attribute = (tag: string, name: string): string | undefined =>
  new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1];

const unescapeHtml = (text: string) =>
  text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/** The forms of an account page, as a browser would submit them unchanged. */
export function formsOf(page: string, html: string): HtmlForm[] {
  const forms: HtmlForm[] = [];
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const [, tag, inner] = match as unknown as [string, string, string];
    const method = (attribute(tag, 'method') ?? 'get').toUpperCase() === 'POST' ? 'POST' : 'GET';
    const action = unescapeHtml(attribute(tag, 'action') ?? page);
    const fields: [string, string][] = [];
    const typed: string[] = [];
    for (const control of inner.matchAll(/<(input|textarea|select)\b([^>]*)>([\s\S]*?<\/\1>)?/gi)) {
      const [, kind, attributes, content = ''] = control as unknown as [string, string, string, string?];
      const name = attribute(attributes, 'name');
      if (!name) continue;
      if (kind!.toLowerCase() === 'input') {
        const type = (attribute(attributes, 'type') ?? 'text').toLowerCase();
        if ((type === 'checkbox' || type === 'radio') && !/\schecked\b/i.test(attributes)) continue;
        if (type === 'submit' || type === 'button') continue;
        if (TYPED_INPUTS.has(type)) typed.push(name);
        fields.push([
          name,
          unescapeHtml(attribute(attributes, 'value') ?? (type === 'checkbox' ? 'on' : '')),
        ]);
      } else if (kind!.toLowerCase() === 'textarea') {
        typed.push(name);
        fields.push([name, unescapeHtml(content.replace(/<\/textarea>$/i, ''))]);
      } else {
        const options = [...content.matchAll(/<option\b([^>]*)>/gi)].map((o) => o[1]!);
        const chosen = options.find((o) => /\sselected\b/i.test(o)) ?? options[0];
        fields.push([name, unescapeHtml((chosen && attribute(chosen, 'value')) ?? '')]);
      }
    }
    forms.push({ page, action, method, fields, typed });
  }
  return forms;
}

/** The account links of a page (same area, no fragment), to crawl. */
export function accountLinksOf(html: string): string[] {
  return [...html.matchAll(/\shref="(\/account[^"#]*)"/g)].map((m) => unescapeHtml(m[1]!));
}
