import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';

/**
 * A still image as a YUV4MPEG2 video (4:2:0, progressive), the format Chromium's fake camera plays
 * (`--use-fake-device-for-media-stream --use-file-for-fake-video-capture=FILE.y4m`). The image is
 * fitted into the frame on white, then converted with the BT.601 studio-range matrix (what the
 * camera pipeline assumes of I420), chroma averaged over each 2×2 block.
 */
export async function writeY4m(
  image: Buffer,
  file: string,
  options: { width?: number; height?: number; frames?: number; fps?: number } = {},
): Promise<void> {
  const width = options.width ?? 640;
  const height = options.height ?? 480;
  const frames = options.frames ?? 5;
  const rgb = await sharp(image)
    .flatten({ background: '#ffffff' })
    .resize(width, height, { fit: 'contain', background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer();
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc(u.length);
  const clamp = (n: number) => Math.max(0, Math.min(255, Math.round(n)));
  for (let i = 0; i < width * height; i++) {
    const r = rgb[i * 3]!;
    const g = rgb[i * 3 + 1]!;
    const b = rgb[i * 3 + 2]!;
    y[i] = clamp(16 + 0.257 * r + 0.504 * g + 0.098 * b);
  }
  for (let row = 0; row < height / 2; row++) {
    for (let col = 0; col < width / 2; col++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dy, dx] of [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
      ] as const) {
        const p = ((row * 2 + dy) * width + col * 2 + dx) * 3;
        r += rgb[p]!;
        g += rgb[p + 1]!;
        b += rgb[p + 2]!;
      }
      r /= 4;
      g /= 4;
      b /= 4;
      const k = row * (width / 2) + col;
      u[k] = clamp(128 - 0.148 * r - 0.291 * g + 0.439 * b);
      v[k] = clamp(128 + 0.439 * r - 0.368 * g - 0.071 * b);
    }
  }
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${options.fps ?? 10}:1 Ip A1:1 C420\n`);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  await writeFile(file, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}
