/**
 * PHP's json_encode() with its default flags, which is how WordPress (wp_json_encode) and PrestaShop
 * write every JSON body: "/" is escaped as "\/" and each non-ASCII character becomes a lowercase
 * \uXXXX escape (UTF-16 units). Signatures are computed over these exact bytes, so a consumer that
 * re-serialises the parsed JSON before checking an HMAC gets a different digest — the fakes keep the
 * trap real.
 */
export function phpJsonEncode(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
