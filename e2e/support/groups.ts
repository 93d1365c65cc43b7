// Helpers for batches, carousels and image packs: create, wait for the end, read the archive.
import { randomUUID } from 'node:crypto';
import yauzl from 'yauzl';
import { api, type ApiResponse } from './api.ts';
import { until } from './until.ts';

export type GroupPath = 'batches' | 'carousels' | 'image-packs';

export async function newTemplate(key: string, body: Record<string, unknown>): Promise<{ id: string }> {
  const response = await api('/v1/templates', { method: 'POST', key, body });
  if (response.status !== 201) throw new Error(`template not created: ${response.status} ${response.text.slice(0, 300)}`);
  return response.body;
}

export function createGroup(path: GroupPath, key: string, body: unknown, idempotencyKey: string | null = randomUUID()): Promise<ApiResponse> {
  return api(`/v1/${path}`, { method: 'POST', key, body, headers: idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey } });
}

const finished = new Set(['complete', 'partial', 'failed', 'cancelled']);

/** Polls the group until every member has finished. */
export async function settled(path: GroupPath, key: string, id: string, timeoutMs = 120_000): Promise<any> {
  return until(async () => {
    const response = await api(`/v1/${path}/${id}`, { key });
    if (response.status !== 200) throw new Error(`group read failed: ${response.status} ${response.text.slice(0, 300)}`);
    return finished.has(response.body.state) ? response.body : null;
  }, timeoutMs);
}

/** Member jobs of a group read as the renders they are. */
export const membersOf = (group: any): any[] => group.rows ?? group.members;

/** The entries of a ZIP in stored order, with their bytes. */
export async function unzip(bytes: Buffer): Promise<{ name: string; bytes: Buffer }[]> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const entries: { name: string; bytes: Buffer }[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      zip
        .openReadStreamPromise(entry)
        .then(async (stream) => {
          const chunks: Buffer[] = [];
          for await (const chunk of stream) chunks.push(chunk as Buffer);
          entries.push({ name: entry.fileName, bytes: Buffer.concat(chunks) });
          zip.readEntry();
        })
        .catch(reject);
    });
    zip.readEntry();
  });
  return entries;
}

export async function fetchArchive(url: string) {
  const response = await fetch(url);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString('utf8') };
}
