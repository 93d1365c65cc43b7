// Provenance for a finished PDF: Info keys (SvcJobId, SvcTemplateId, SvcTemplateVersion,
// SvcDataSha256) and an XMP metadata stream on the catalog, written as an incremental update
// appended to the file. Nothing already written moves, so a document of a thousand pages costs
// the same as one of a page: the Info dictionary and the catalog are read where the
// cross-reference table says, and written again with the new entries after the old end of file.
// A file laid out other than as one classic table (never Chromium's or pdf-lib's own) is first
// rewritten by pdf-lib into that shape.
import { PDFDocument } from 'pdf-lib';
import type { RenderProvenance } from '@svc/contracts';
import { provenanceFields, provenanceXmp } from '../provenance/provenance-fields.ts';
import { objectText, readXrefTable, type Reference, referenceIn } from './xref-table.ts';

export async function appendProvenance(pdf: Buffer, provenance: RenderProvenance): Promise<Buffer> {
  const appended = appendUpdate(pdf, provenance);
  if (appended) return appended;
  const rewritten = await (await PDFDocument.load(pdf, { updateMetadata: false })).save({ useObjectStreams: false });
  const again = appendUpdate(Buffer.from(rewritten.buffer, rewritten.byteOffset, rewritten.byteLength), provenance);
  if (!again) throw new Error('pdf-lib wrote a file without a classic cross-reference table');
  return again;
}

/** The update appended to `pdf`, or null when its last cross-reference section is not a classic table. */
function appendUpdate(pdf: Buffer, provenance: RenderProvenance): Buffer | null {
  const table = readXrefTable(pdf);
  if (!table) return null;
  const { at: xrefAt, trailer } = table;
  const size = Number(/\/Size\s+(\d+)/.exec(trailer)?.[1] ?? Number.NaN);
  const root = referenceIn(trailer, 'Root');
  const info = referenceIn(trailer, 'Info');
  if (!Number.isInteger(size) || !root) return null;

  const catalog = dictionaryOf(objectText(pdf, table, root.number));
  const oldInfo = info ? dictionaryOf(objectText(pdf, table, info.number)) : '<<>>';
  if (catalog === null || oldInfo === null) return null;
  const infoRef = info ?? { number: size, generation: 0 };
  const metadataRef = { number: Math.max(size, infoRef.number + 1), generation: 0 };

  const entries = provenanceFields(provenance)
    .map(([name, value]) => `/Svc${name} ${pdfText(value)}`)
    .join(' ');
  const metadataEntry = `/Metadata ${metadataRef.number} 0 R`;
  const newCatalog = /\/Metadata\s+\d+\s+\d+\s+R/.test(catalog)
    ? catalog.replace(/\/Metadata\s+\d+\s+\d+\s+R/, metadataEntry)
    : `${catalog.slice(0, -2)} ${metadataEntry}>>`;
  const newInfo = `${withoutSvcKeys(oldInfo).slice(0, -2)} ${entries}>>`;
  const xmp = Buffer.from(provenanceXmp(provenance), 'utf8');

  const parts: Buffer[] = [Buffer.from('\n', 'latin1')];
  let at = pdf.length + 1;
  const written: { ref: Reference; offset: number }[] = [];
  const add = (ref: Reference, body: Buffer) => {
    written.push({ ref, offset: at });
    const object = Buffer.concat([Buffer.from(`${ref.number} ${ref.generation} obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(object);
    at += object.length;
  };
  add(infoRef, Buffer.from(newInfo, 'latin1'));
  add(root, Buffer.from(newCatalog, 'latin1'));
  add(
    metadataRef,
    Buffer.concat([Buffer.from(`<< /Type /Metadata /Subtype /XML /Length ${xmp.length} >>\nstream\n`, 'latin1'), xmp, Buffer.from('\nendstream', 'latin1')]),
  );

  const newSize = Math.max(size, metadataRef.number + 1);
  const id = /\/ID\s*\[[^\]]*\]/.exec(trailer)?.[0] ?? '';
  const xref = [
    'xref\n',
    ...written
      .sort((a, b) => a.ref.number - b.ref.number)
      .map(({ ref, offset }) => `${ref.number} 1\n${String(offset).padStart(10, '0')} ${String(ref.generation).padStart(5, '0')} n \n`),
    `trailer\n<< /Size ${newSize} /Root ${root.number} ${root.generation} R /Info ${infoRef.number} ${infoRef.generation} R /Prev ${xrefAt} ${id}>>\n`,
    `startxref\n${at}\n%%EOF\n`,
  ].join('');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat([pdf, ...parts]);
}

/** A plain (non-stream) object's dictionary, `<<` to `>>`, from its text (see objectText). */
function dictionaryOf(text: string | null): string | null {
  const match = text && /^\d+\s+\d+\s+obj\s*(<<[\s\S]*>>)\s*endobj\s*$/.exec(text);
  return match ? (match[1] ?? null) : null;
}

/** Entries of an earlier provenance dropped (a file is stamped once, but never with two values). */
function withoutSvcKeys(dictionary: string): string {
  return dictionary.replace(/\/Svc(JobId|TemplateId|TemplateVersion|DataSha256)\s*(\([^)]*\)|<[0-9A-Fa-f\s]*>)/g, '');
}

/** A PDF text string: printable ASCII as a literal, anything else as UTF-16BE with its byte order mark. */
function pdfText(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return `(${value.replace(/[\\()]/g, (char) => `\\${char}`)})`;
  return `<FEFF${Buffer.from(value, 'utf16le').swap16().toString('hex').toUpperCase()}>`;
}
