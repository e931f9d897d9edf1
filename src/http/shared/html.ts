/**
 * Server-rendered HTML without a template engine, for every page surface (account area, tracking
 * pages): `html` is a tagged template whose interpolated values are escaped unless they are
 * themselves the output of `html` (a `SafeHtml`). There is no other way to put raw markup on a page.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

const escapeHtml = (text: string): string => text.replace(/[&<>"'`]/g, (c) => ENTITIES[c]!);

type Value = SafeHtml | string | number | null | undefined | false | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/** A whole page's markup, ready to send. */
export const toText = (doc: SafeHtml): string => `<!doctype html>\n${doc.value}`;
