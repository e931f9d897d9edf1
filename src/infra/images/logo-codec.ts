import { LOGO_BOX, type LogoCodec, MAX_LOGO_SIDE } from '../../domain/recipients/logo.ts';

/** The column's own limit (migration 0035): a full-colour 400×120 PNG stays below it, a palette one far below. */
const STORED_MAX_BYTES = 200_000;

/**
 * Brand logos through sharp (libvips), loaded at the first logo, like the proof photos'
 * codec (sharp-codec.ts): decoded from the sniffed format only, every pixel checked (a truncated
 * file is refused, not padded), re-encoded as a PNG with no metadata, transparency kept.
 */
export function sharpLogoCodec(): LogoCodec {
  let loaded: Promise<typeof import('sharp')> | null = null;
  return {
    async toLogoPng(bytes, format) {
      loaded ??= import('sharp');
      const sharp = (await loaded).default;
      const options = {
        failOn: 'error',
        limitInputPixels: MAX_LOGO_SIDE * MAX_LOGO_SIDE,
        autoOrient: true,
      } as const;
      try {
        // The header first: a canvas too big is said as such, before any pixel is decoded.
        const meta = await sharp(bytes, options).metadata();
        if (meta.format !== format) return { ok: false, problem: 'unreadable' };
        if ((meta.width ?? 0) > MAX_LOGO_SIDE || (meta.height ?? 0) > MAX_LOGO_SIDE)
          return { ok: false, problem: 'dimensions' };
        const fitted = () =>
          sharp(bytes, options)
            .resize({
              width: LOGO_BOX.width,
              height: LOGO_BOX.height,
              fit: 'inside',
              withoutEnlargement: true,
            })
            .toColourspace('srgb');
        let png = await fitted().png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer();
        if (png.length > STORED_MAX_BYTES)
          png = await fitted().png({ compressionLevel: 9, palette: true, dither: 1 }).toBuffer();
        return { ok: true, png };
      } catch (err) {
        const message = (err as Error).message;
        return { ok: false, problem: /pixel limit/i.test(message) ? 'dimensions' : 'unreadable' };
      }
    },
  };
}
