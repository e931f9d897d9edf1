/**
 * Proof files (decision 0006): type by bytes, size, decodable, re-encoded upright with no
 * metadata. Real images made with sharp, through the real codec.
 */
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  imageTypeOf,
  MAX_PROOF_FILE_BYTES,
  prepareProofFile,
  prepareProofFiles,
} from '../src/domain/proofs/proof-files.ts';
import { isAppError } from '../src/errors.ts';
import { sharpCodec } from '../src/infra/images/sharp-codec.ts';

const codec = sharpCodec();

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } });

/** A JPEG as a phone writes it: EXIF with the GPS position, the camera, and an orientation. */
async function phoneJpeg(width = 400, height = 300, orientation = 1): Promise<Buffer> {
  return solid(width, height)
    .jpeg()
    .withMetadata({ orientation })
    .withExifMerge({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 12' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2964/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 17/1 4020/100',
      },
    })
    .toBuffer();
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    if (isAppError(err)) return { code: err.code, status: err.status, details: err.details };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('proof files', () => {
  it('the test input really carries EXIF with a GPS position', async () => {
    const input = await phoneJpeg();
    const meta = await sharp(input).metadata();
    expect(meta.exif).toBeDefined();
    expect(meta.orientation).toBe(1);
    expect((await sharp(await phoneJpeg(400, 300, 6)).metadata()).orientation).toBe(6);
    expect(meta.exif!.toString('latin1')).toContain('PhoneMaker');
    // The GPS IFD pointer (tag 0x8825), in either byte order.
    const gpsTag =
      meta.exif!.includes(Buffer.from([0x88, 0x25])) || meta.exif!.includes(Buffer.from([0x25, 0x88]));
    expect(gpsTag).toBe(true);
  });

  it('re-encodes a photo as JPEG with no metadata at all: no EXIF (no GPS), no XMP, no ICC', async () => {
    const prepared = await prepareProofFile('photo', await phoneJpeg(), codec);
    expect(prepared.contentType).toBe('image/jpeg');
    expect(imageTypeOf(prepared.bytes)).toBe('image/jpeg');
    const meta = await sharp(prepared.bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    // Nor any trace of it anywhere in the bytes.
    expect(prepared.bytes.includes(Buffer.from('PhoneMaker'))).toBe(false);
    expect(prepared.bytes.includes(Buffer.from('Exif\0'))).toBe(false);
  });

  it('turns the photo upright by its EXIF orientation before dropping it', async () => {
    // Orientation 6: stored landscape, shown rotated 90° clockwise (portrait).
    const prepared = await prepareProofFile('photo', await phoneJpeg(400, 300, 6), codec);
    const meta = await sharp(prepared.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([300, 400]);
  });

  it('fits a photo within 1600 px on its long side, and never enlarges a small one', async () => {
    const big = await prepareProofFile('photo', await solid(3000, 2000).jpeg().toBuffer(), codec);
    const bigMeta = await sharp(big.bytes).metadata();
    expect([bigMeta.width, bigMeta.height]).toEqual([1600, 1067]);
    const small = await prepareProofFile('photo', await solid(320, 240).jpeg().toBuffer(), codec);
    const smallMeta = await sharp(small.bytes).metadata();
    expect([smallMeta.width, smallMeta.height]).toEqual([320, 240]);
  });

  it('accepts PNG and WebP photos (re-encoded as JPEG) and keeps a signature as a PNG ≤ 1200 px', async () => {
    const fromPng = await prepareProofFile('photo', await solid(50, 40).png().toBuffer(), codec);
    expect(imageTypeOf(fromPng.bytes)).toBe('image/jpeg');
    const fromWebp = await prepareProofFile('photo', await solid(50, 40).webp().toBuffer(), codec);
    expect(imageTypeOf(fromWebp.bytes)).toBe('image/jpeg');
    const signature = await prepareProofFile(
      'signature',
      await sharp({
        create: { width: 2400, height: 800, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
      })
        .webp()
        .toBuffer(),
      codec,
    );
    expect(signature.contentType).toBe('image/png');
    const meta = await sharp(signature.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 400]);
  });

  it('judges the type by the bytes, not by the name or declared type: a GIF, a PDF, a text are 415', async () => {
    const gif = await solid(10, 10).gif().toBuffer();
    for (const bytes of [
      gif,
      Buffer.from('%PDF-1.7\n…'),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    ]) {
      const refused = await refusal(prepareProofFile('photo', bytes, codec));
      expect(refused).toMatchObject({ code: 'unsupported_media_type', status: 415 });
      expect(refused.details).toEqual([{ field: 'photo', message: 'must be a JPEG, PNG or WebP image' }]);
    }
  });

  it('refuses a file over 10 MB with 413, before looking at it', async () => {
    const tooBig = Buffer.alloc(MAX_PROOF_FILE_BYTES + 1, 0);
    tooBig.set([0xff, 0xd8, 0xff]);
    expect(await refusal(prepareProofFile('signature', tooBig, codec))).toMatchObject({
      code: 'payload_too_large',
      status: 413,
      details: [{ field: 'signature', message: 'must be at most 10 MB' }],
    });
  });

  it('refuses a corrupt or truncated image, and an empty file, with 422 unreadable_image', async () => {
    const jpeg = await phoneJpeg();
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    const garbage = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 0x41)]);
    const fakePng = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(64, 1),
    ]);
    for (const bytes of [truncated, garbage, fakePng, Buffer.alloc(0)]) {
      expect(await refusal(prepareProofFile('photo', bytes, codec))).toMatchObject({
        code: 'unreadable_image',
        status: 422,
      });
    }
  });

  it('refuses a decompression bomb (too many pixels) as unreadable', async () => {
    // A real PNG whose header claims 20000 × 20000 pixels: refused from the header, never decoded.
    const bomb = Buffer.from(await solid(1, 1).png().toBuffer());
    bomb.writeUInt32BE(20_000, 16);
    bomb.writeUInt32BE(20_000, 20);
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
    expect(await refusal(prepareProofFile('photo', bomb, codec))).toMatchObject({ code: 'unreadable_image' });
  });

  it('prepares both files or neither: a bad signature refuses the pair', async () => {
    const photo = await phoneJpeg();
    const both = await prepareProofFiles({ photo, signature: await solid(30, 10).png().toBuffer() }, codec);
    expect(both.map((f) => f.kind)).toEqual(['photo', 'signature']);
    expect(await refusal(prepareProofFiles({ photo, signature: Buffer.from('nope') }, codec))).toMatchObject({
      code: 'unsupported_media_type',
      details: [{ field: 'signature' }],
    });
  });
});
