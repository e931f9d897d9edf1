/**
 * Server-rendered HTML without a template engine: `html` is a tagged template whose interpolated
 * values are escaped unless they are themselves `html` fragments. Every value from the database
 * (a brand's name, a city) goes through `escapeHtml`, so markup can only come from the templates.
 */
const RAW = Symbol('html');

export interface Html {
  readonly [RAW]: string;
}

const fragment = (text: string): Html => ({ [RAW]: text });

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

type Value = Html | string | number | null | undefined | false | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (typeof value === 'object') return (value as Html)[RAW];
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return fragment(out);
}

/** The document's text, to send. */
export const toText = (doc: Html): string => `<!doctype html>\n${doc[RAW]}`;
