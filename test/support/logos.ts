import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/** A logo-like image made by sharp: two colour bands on a transparent or white ground. */
export async function logoImage(
  format: 'png' | 'jpeg' | 'webp' | 'gif',
  width = 800,
  height = 300,
): Promise<Buffer> {
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <rect x="0" y="0" width="${width / 2}" height="${height}" fill="#c2410c"/>
      <circle cx="${(width * 3) / 4}" cy="${height / 2}" r="${height / 3}" fill="#0f766e"/>
    </svg>`,
  );
  const image = sharp(svg);
  switch (format) {
    case 'png':
      return image.png().toBuffer();
    case 'jpeg':
      return image.flatten({ background: '#ffffff' }).jpeg().toBuffer();
    case 'webp':
      return image.webp().toBuffer();
    case 'gif':
      return image.gif().toBuffer();
  }
}

export const SVG_LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><script>alert(1)</script><rect width="200" height="60" fill="red"/></svg>',
);

/** A valid PNG whose header claims `width` × `height` (its IHDR rewritten, CRC fixed): a decompression bomb's shape. */
export async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await logoImage('png', 16, 16));
  // IHDR: length(4) type(4) at 8; width at 16, height at 20; its CRC at 29 over type+data (17 bytes).
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

/** More than 1 MB that starts like a PNG. */
export const oversizedPng = () =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    randomBytes(1024 * 1024 + 10),
  ]);

type Part =
  | { name: string; value: string }
  | { name: string; filename: string; type: string; content: Buffer };

/** A multipart/form-data body as a browser sends it, parts in the given order. */
export function multipartBody(parts: readonly Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----dlvtest${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head =
      'content' in part
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n`;
    chunks.push(
      Buffer.from(head),
      'content' in part ? part.content : Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
