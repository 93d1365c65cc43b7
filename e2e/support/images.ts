// Real image files for upload tests, made with sharp (and an APNG written by hand, since
// sharp writes none), and the raw-bytes upload call.
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { baseUrl, serviceDb } from './api.ts';

export const solid = (width: number, height: number, colour: string, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: colour } });

export const png = (width: number, height: number, colour = '#ff0000', channels: 3 | 4 = 3) => solid(width, height, colour, channels).png().toBuffer();
export const jpeg = (width: number, height: number, colour = '#00ff00') => solid(width, height, colour).jpeg().toBuffer();
export const webp = (width: number, height: number, colour = '#0000ff') => solid(width, height, colour).webp().toBuffer();

/** A JPEG stored width x height whose EXIF orientation (6: rotate 90) displays it height x width. */
export const rotatedJpeg = (width: number, height: number) => solid(width, height, '#ffff00').jpeg().withMetadata({ orientation: 6 }).toBuffer();

async function frames() {
  return [await png(16, 16, '#ff0000'), await png(16, 16, '#00ff00')];
}
export const animatedGif = async () => sharp(await frames(), { join: { animated: true } }).gif().toBuffer();
export const animatedWebp = async () => sharp(await frames(), { join: { animated: true } }).webp().toBuffer();
export const stillGif = () => solid(16, 16, '#ff0000').gif().toBuffer();

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * An animated PNG: a still PNG with an acTL chunk (2 frames, loop forever) right after IHDR.
 * libvips reads it as its still default image; only the chunk says it is animated.
 */
export async function apng(): Promise<Buffer> {
  const still = await png(16, 16, '#ff0000');
  const ihdrEnd = 8 + 8 + still.readUInt32BE(8) + 4;
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(2, 0);
  actl.writeUInt32BE(0, 4);
  return Buffer.concat([still.subarray(0, ihdrEnd), chunk('acTL', actl), still.subarray(ihdrEnd)]);
}

export interface UploadResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** POST /v1/image-assets with raw bytes; `type` null sends no Content-Type. */
export async function upload(key: string, bytes: Buffer, type: string | null): Promise<UploadResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (type !== null) headers['content-type'] = type;
  // fetch adds text/plain to a string body, never to bytes
  const response = await fetch(`${baseUrl()}/v1/image-assets`, { method: 'POST', headers, body: new Uint8Array(bytes) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null, text };
}

export async function content(key: string, id: string) {
  const response = await fetch(`${baseUrl()}/v1/image-assets/${id}/content`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/**
 * Records asset files of these sizes for the account, as if uploaded (rows and the usage
 * counter; no bytes in storage), to bring it near its quota quickly.
 */
export async function holdAssets(accountId: string, sizes: number[]): Promise<void> {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  await serviceDb().accountAssetUsage.create({ data: { accountId, files: sizes.length, bytes: BigInt(total) } });
  await serviceDb().asset.createMany({
    data: sizes.map((byteSize) => {
      const id = `asset_${randomBytes(16).toString('hex')}`;
      return { id, accountId, kind: 'image' as const, mediaType: 'image/png', byteSize, width: 1, height: 1, sha256: '0'.repeat(64), storageKey: `${accountId}/held/${id}` };
    }),
  });
}
