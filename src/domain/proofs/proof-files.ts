import { AppError } from '../../errors.ts';
import type { ImageCodec } from './ports.ts';

/** The largest file a courier's phone (or an operator's app) may send as a photo or a signature. */
export const MAX_PROOF_FILE_BYTES = 10 * 1024 * 1024;

export type ProofFileKind = 'photo' | 'signature';
export const PROOF_FILE_KINDS: readonly ProofFileKind[] = ['photo', 'signature'];

/** A file ready to store: re-encoded by us, whatever was sent. */
export interface PreparedProofFile {
  kind: ProofFileKind;
  bytes: Buffer;
  contentType: 'image/jpeg' | 'image/png';
}

type SentType = 'image/jpeg' | 'image/png' | 'image/webp';

/**
 * What the bytes are, by their signature (never by the file's name or the declared type, which the
 * sender chooses): JPEG, PNG or WebP, else null.
 */
export function imageTypeOf(bytes: Buffer): SentType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return null;
}
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * How each kind is kept: a photo as a JPEG of at most 1600 px on its long side (enough to see a
 * parcel at a door, small enough for a phone on 4G), a signature as a PNG of at most 1200 px
 * (strokes stay sharp, transparency kept).
 */
const TARGETS = {
  photo: { format: 'jpeg', maxSide: 1600 },
  signature: { format: 'png', maxSide: 1200 },
} as const;

/**
 * Checks one sent file and re-encodes it (decision 0006): size (413 `payload_too_large`), type by
 * its bytes (415 `unsupported_media_type`), decodable (422 `unreadable_image`); then turned upright
 * by its EXIF orientation, resized and re-encoded with **no metadata at all** (no EXIF, so no GPS
 * position, camera or owner; no XMP; no ICC profile: converted to sRGB). Nothing is written here:
 * callers store only what this returns, so a refused file leaves no trace.
 */
export async function prepareProofFile(
  kind: ProofFileKind,
  bytes: Buffer,
  codec: ImageCodec,
): Promise<PreparedProofFile> {
  if (bytes.length > MAX_PROOF_FILE_BYTES) {
    throw new AppError('payload_too_large', `${kind}: the file is larger than 10 MB`, [
      { field: kind, message: 'must be at most 10 MB' },
    ]);
  }
  if (bytes.length === 0) {
    throw new AppError('unreadable_image', `${kind}: the file is empty`, [
      { field: kind, message: 'is empty' },
    ]);
  }
  if (imageTypeOf(bytes) === null) {
    throw new AppError('unsupported_media_type', `${kind}: only JPEG, PNG and WebP images are accepted`, [
      { field: kind, message: 'must be a JPEG, PNG or WebP image' },
    ]);
  }
  const target = TARGETS[kind];
  const encoded = await codec.reencode(bytes, target);
  if (!encoded.ok) {
    throw new AppError('unreadable_image', `${kind}: the image cannot be read (${encoded.reason})`, [
      { field: kind, message: 'cannot be read as an image' },
    ]);
  }
  return { kind, bytes: encoded.bytes, contentType: target.format === 'jpeg' ? 'image/jpeg' : 'image/png' };
}

/** Both files of a delivery, each checked and re-encoded before either is stored. */
export async function prepareProofFiles(
  files: Partial<Record<ProofFileKind, Buffer>>,
  codec: ImageCodec,
): Promise<PreparedProofFile[]> {
  const prepared: PreparedProofFile[] = [];
  for (const kind of PROOF_FILE_KINDS) {
    const bytes = files[kind];
    if (bytes) prepared.push(await prepareProofFile(kind, bytes, codec));
  }
  return prepared;
}
