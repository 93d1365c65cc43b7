// FieldDetail.field for data: "data" followed by a JSON Pointer cut at 256 UTF-8 bytes (spec part 7).
const maxPointerBytes = 256;

export function dataPointerField(pointer: string): string {
  if (Buffer.byteLength(pointer, 'utf8') <= maxPointerBytes) return `data${pointer}`;
  let cut = '';
  let bytes = 0;
  for (const char of pointer) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > maxPointerBytes) break;
    cut += char;
    bytes += size;
  }
  return `data${cut}`;
}
