import type { ImageCodec } from '../../domain/proofs/ports.ts';

/**
 * Decompression bombs: a 10 MB PNG of one colour can claim hundreds of megapixels. 40 MP is more
 * than any phone camera's photo (a 48 MP sensor bins to 12 MP by default).
 */
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * Images through sharp (libvips), loaded at the first image: an API process that never receives a
 * photo, and every `dlv` command, never loads it. sharp writes no metadata unless asked to
 * (`keepMetadata`, `withExif`…), so every output here is stripped of EXIF, XMP, IPTC and ICC.
 */
export function sharpCodec(): ImageCodec {
  let loaded: Promise<typeof import('sharp')> | null = null;
  return {
    async reencode(bytes, target) {
      loaded ??= import('sharp');
      const sharp = (await loaded).default;
      let pipeline: import('sharp').Sharp;
      try {
        // libjpeg-turbo with optimised Huffman tables, not mozjpeg: mozjpeg's files are ~25% smaller
        // but cost 5× the CPU (1.2 s against 0.2 s for a 3000×2000 photo here), which is the upload's p99.
        pipeline = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, autoOrient: true })
          .resize({ width: target.maxSide, height: target.maxSide, fit: 'inside', withoutEnlargement: true })
          .toColourspace('srgb');
        const out =
          target.format === 'jpeg'
            ? await pipeline
                .flatten({ background: '#ffffff' })
                .jpeg({ quality: 80, optimiseCoding: true })
                .toBuffer()
            : await pipeline.png({ compressionLevel: 9, palette: true }).toBuffer();
        return { ok: true, bytes: out };
      } catch (err) {
        return { ok: false, reason: (err as Error).message.split('\n')[0]!.slice(0, 200) };
      }
    },
  };
}
