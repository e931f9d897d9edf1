import { html, type SafeHtml } from '../../shared/html.ts';

/** A form's mistakes by field name, each already in the page's language. */
export type FieldErrors = Record<string, string>;

interface Common {
  value?: string;
  error?: string | undefined;
  maxlength?: number;
  required?: boolean;
  hint?: string;
}

// The message sits right under its field and is tied to it, so a screen reader reads it with it.
const errorOf = (name: string, error: string | undefined) =>
  error ? html`<p class="field-error" id="${name}-error">${error}</p>` : '';

const describedBy = (name: string, error: string | undefined) =>
  error ? html` aria-invalid="true" aria-describedby="${name}-error"` : '';

export function inputField(
  label: string,
  name: string,
  options: Common & { type?: string; inputmode?: string; placeholder?: string } = {},
): SafeHtml {
  return html`<label for="${name}">${label}</label>
<input id="${name}" name="${name}" type="${options.type ?? 'text'}" value="${options.value ?? ''}" maxlength="${options.maxlength ?? 254}"${
    options.inputmode ? html` inputmode="${options.inputmode}"` : ''
  }${options.placeholder ? html` placeholder="${options.placeholder}"` : ''}${
    options.required ? html` required` : ''
  }${describedBy(name, options.error)}>
${errorOf(name, options.error)}`;
}

export function textareaField(
  label: string,
  name: string,
  options: Common & { rows?: number } = {},
): SafeHtml {
  return html`<label for="${name}">${label}</label>
<textarea id="${name}" name="${name}" rows="${options.rows ?? 3}" maxlength="${options.maxlength ?? 500}"${
    options.required ? html` required` : ''
  }${describedBy(name, options.error)}>${options.value ?? ''}</textarea>
${errorOf(name, options.error)}`;
}

export function selectField(
  label: string,
  name: string,
  choices: { value: string; label: string }[],
  options: Common = {},
): SafeHtml {
  return html`<label for="${name}">${label}</label>
<select id="${name}" name="${name}"${describedBy(name, options.error)}>${choices.map(
    (c) =>
      html`<option value="${c.value}"${c.value === options.value ? html` selected` : ''}>${c.label}</option>`,
  )}</select>
${errorOf(name, options.error)}`;
}
