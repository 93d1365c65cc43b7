// What a rendered file records about its origin, in the one set of names every format uses:
// PDF Info keys, XMP properties of the service's namespace (PDF, PNG, JPEG, WebP) and PNG text
// keywords. The names are part of the product (docs/decisions/renders.md, Provenance).
import type { RenderProvenance } from '@svc/contracts';

/** The XMP namespace of the service's properties, with its usual prefix. */
export const provenanceNamespace = { prefix: 'svc', uri: 'urn:svc:ns:provenance:1.0/' } as const;

/** The fields in order: XMP property name (also the PDF Info key and PNG keyword, prefixed Svc) and text. */
export function provenanceFields(provenance: RenderProvenance): [name: string, value: string][] {
  const fields: [string, string][] = [['JobId', provenance.job_id]];
  if (provenance.template) {
    fields.push(['TemplateId', provenance.template.id], ['TemplateVersion', String(provenance.template.version)]);
  }
  if (provenance.data_sha256 !== undefined) fields.push(['DataSha256', provenance.data_sha256]);
  return fields;
}

const xmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** An XMP packet holding the provenance fields as simple properties of the service namespace. */
export function provenanceXmp(provenance: RenderProvenance): string {
  const { prefix, uri } = provenanceNamespace;
  const properties = provenanceFields(provenance)
    .map(([name, value]) => `   <${prefix}:${name}>${value.replace(/[&<>"]/g, (char) => xmlEscapes[char] ?? char)}</${prefix}:${name}>\n`)
    .join('');
  return (
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>\n' +
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n' +
    ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n' +
    `  <rdf:Description rdf:about="" xmlns:${prefix}="${uri}">\n` +
    properties +
    '  </rdf:Description>\n' +
    ' </rdf:RDF>\n' +
    '</x:xmpmeta>\n' +
    '<?xpacket end="r"?>'
  );
}
