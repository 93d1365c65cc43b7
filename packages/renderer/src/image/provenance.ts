// Provenance for a rendered image, written into the file Chromium encoded without decoding it
// again (a second JPEG or lossy WebP encoding would cost quality): PNG gets an iTXt chunk per
// field (keywords SvcJobId ...) and the XMP packet in the iTXt chunk XMP readers look for; JPEG
// an APP1 XMP segment; WebP an XMP chunk, with the extended-format header that announces it.
import { crc32 } from 'node:zlib';
import type { ImageFormat, RenderProvenance } from '@svc/contracts';
import { provenanceFields, provenanceXmp } from '../provenance/provenance-fields.ts';

export function stampImage(bytes: Buffer, format: ImageFormat, size: { width: number; height: number }, provenance: RenderProvenance): Buffer {
  const xmp = Buffer.from(provenanceXmp(provenance), 'utf8');
  if (format === 'png') return stampPng(bytes, provenance, xmp);
  if (format === 'jpeg') return stampJpeg(bytes, xmp);
  return stampWebp(bytes, size, xmp);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The chunks go right after IHDR, ahead of the image data, where every reader meets them. */
function stampPng(bytes: Buffer, provenance: RenderProvenance, xmp: Buffer): Buffer {
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  const afterHeader = 8 + 12 + bytes.readUInt32BE(8);
  const chunks = [
    ...provenanceFields(provenance).map(([name, value]) => internationalText(`Svc${name}`, Buffer.from(value, 'utf8'))),
    internationalText('XML:com.adobe.xmp', xmp),
  ];
  return Buffer.concat([bytes.subarray(0, afterHeader), ...chunks, bytes.subarray(afterHeader)]);
}

/** An uncompressed iTXt chunk: keyword, no language, UTF-8 text. */
function internationalText(keyword: string, text: Buffer): Buffer {
  const data = Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0, 0, 0, 0, 0]), text]);
  const typed = Buffer.concat([Buffer.from('iTXt', 'latin1'), data]);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  typed.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(typed), 8 + data.length);
  return chunk;
}

const XMP_SIGNATURE = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');

/** The APP1 segment goes after SOI and the JFIF APP0 segment, which must stay first. */
function stampJpeg(bytes: Buffer, xmp: Buffer): Buffer {
  if (bytes.readUInt16BE(0) !== 0xffd8) throw new Error('not a JPEG');
  let at = 2;
  if (bytes.readUInt16BE(at) === 0xffe0) at += 2 + bytes.readUInt16BE(at + 2);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  // a segment holds at most 65,533 bytes after its marker; the packet is well under a kilobyte
  segment.writeUInt16BE(2 + XMP_SIGNATURE.length + xmp.length, 2);
  return Buffer.concat([bytes.subarray(0, at), segment, XMP_SIGNATURE, xmp, bytes.subarray(at)]);
}

const VP8X_XMP = 0x04;
const VP8X_ALPHA = 0x10;

/**
 * A simple WebP (one VP8 or VP8L chunk) becomes an extended one: a VP8X header with the XMP
 * flag (and the alpha flag when the lossless image has alpha) before the image, the XMP chunk
 * after it.
 */
function stampWebp(bytes: Buffer, size: { width: number; height: number }, xmp: Buffer): Buffer {
  if (bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP') throw new Error('not a WebP');
  const first = bytes.toString('latin1', 12, 16);
  let body: Buffer;
  if (first === 'VP8X') {
    body = Buffer.from(bytes.subarray(12));
    body[8] = (body[8] ?? 0) | VP8X_XMP;
  } else {
    const alpha = first === 'VP8L' && ((bytes[21 + 3] ?? 0) & 0x10) !== 0;
    const header = Buffer.alloc(18);
    header.write('VP8X', 0, 'latin1');
    header.writeUInt32LE(10, 4);
    header[8] = VP8X_XMP | (alpha ? VP8X_ALPHA : 0);
    header.writeUIntLE(size.width - 1, 12, 3);
    header.writeUIntLE(size.height - 1, 15, 3);
    body = Buffer.concat([header, bytes.subarray(12)]);
  }
  const chunk = Buffer.alloc(8 + xmp.length + (xmp.length % 2));
  chunk.write('XMP ', 0, 'latin1');
  chunk.writeUInt32LE(xmp.length, 4);
  xmp.copy(chunk, 8);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + body.length + chunk.length, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, body, chunk]);
}
