import { fieldProblem } from '../../errors.ts';

/** What a brand may upload: a logo, not a photo album. */
export const MAX_LOGO_UPLOAD_BYTES = 1024 * 1024;
/** The box the stored PNG fits in (the tracking page's bar, an e-mail's header). */
export const LOGO_BOX = { width: 400, height: 120 } as const;
/**
 * Larger than any logo needs, small enough that a 1 MB file claiming a huge canvas (a
 * decompression bomb) is refused from its header, before any pixel is decoded.
 */
export const MAX_LOGO_SIDE = 4096;

type LogoFormat = 'png' | 'jpeg' | 'webp';

/**
 * The format the file's first bytes announce, among those taken; null for anything else (SVG,
 * which can carry script; GIF; HEIC, TIFF…). The bytes, not the file name or its declared type.
 */
function sniffLogoFormat(bytes: Buffer): LogoFormat | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return null;
}

/** Turns an uploaded image into the logo that is stored: never the uploaded bytes themselves. */
export interface LogoCodec {
  /**
   * Decodes `bytes` (of the `format` sniffed) and encodes a PNG fitting LOGO_BOX, without any
   * metadata; `dimensions` when the image is wider or higher than MAX_LOGO_SIDE, `unreadable`
   * when it cannot be decoded whole (damaged, truncated, not what it claims).
   */
  toLogoPng(
    bytes: Buffer,
    format: LogoFormat,
  ): Promise<{ ok: true; png: Buffer } | { ok: false; problem: 'dimensions' | 'unreadable' }>;
}

/** A file over MAX_LOGO_UPLOAD_BYTES: also said by the upload's reader, which stops reading there. */
export const logoTooLarge = () => fieldProblem('logo', 'logo.tooLarge', { max: '1 MB' });

/** The upload checked and re-encoded, or a 400 naming `logo` that says what to do. */
export async function logoFromUpload(codec: LogoCodec, bytes: Buffer | null): Promise<Buffer> {
  if (!bytes || bytes.length === 0) throw fieldProblem('logo', 'logo.required');
  if (bytes.length > MAX_LOGO_UPLOAD_BYTES) throw logoTooLarge();
  const format = sniffLogoFormat(bytes);
  if (!format) throw fieldProblem('logo', 'logo.format');
  const result = await codec.toLogoPng(bytes, format);
  if (!result.ok)
    throw result.problem === 'dimensions'
      ? fieldProblem('logo', 'logo.dimensions', { max: MAX_LOGO_SIDE })
      : fieldProblem('logo', 'logo.unreadable');
  return result.png;
}
