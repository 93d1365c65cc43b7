// The archive streams: a 200-row batch of 1 MB files (200 MB of ZIP) passes through a web process
// of its own while its resident memory is sampled; a ZIP built in memory would grow it by the
// archive's size. The figure is printed and quoted in docs/decisions/groups.md (Archives).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { archiveLinkTokens, LocalStorage, newId, signingSecret, signLinkToken } from '@svc/core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { newAccount, serviceContext, serviceDb } from './support/api.ts';
import { freePort, startProcess, stopProcess, waitFor } from './support/global-setup.ts';
import { newTemplate } from './support/groups.ts';

const rows = 200;
const fileBytes = 1024 * 1024;
let web: ReturnType<typeof startProcess> | undefined;

afterAll(async () => {
  if (web) await stopProcess(web);
});

const residentKiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

/** Downloads the whole archive, keeping only its length, while sampling the process's memory. */
async function download(url: string, pid: number): Promise<{ bytes: number; peakKiB: number }> {
  let peakKiB = residentKiB(pid);
  const sampler = setInterval(() => (peakKiB = Math.max(peakKiB, residentKiB(pid))), 20);
  try {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    let bytes = 0;
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.byteLength;
    return { bytes, peakKiB: Math.max(peakKiB, residentKiB(pid)) };
  } finally {
    clearInterval(sampler);
  }
}

describe('archive memory', () => {
  it('streams a 200-row archive of 1 MB files without growing the web process by more than a few MB', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-archive-'));
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    web = startProcess('apps/web/src/server.ts', { DATABASE_URL: inject('httpDatabaseUrl'), PORT: String(port), HOST: '127.0.0.1', SVC_PUBLIC_URL: baseUrl, SVC_DATA_DIR: dataDir });
    await waitFor(`${baseUrl}/v1/openapi.json`, web);

    // a batch whose 200 rows succeeded with 1 MB files each, arranged in the database and storage
    const account = await newAccount({ plan: 'scale' });
    const template = await newTemplate(account.apiKey, { source: '<p>{{ n }}</p>' });
    const storage = new LocalStorage(join(dataDir, 'files'));
    const groupId = newId('batch_');
    const now = new Date();
    await serviceDb().renderGroup.create({
      data: { id: groupId, accountId: account.accountId, kind: 'batch', templateId: template.id, templateVersion: 1, format: 'pdf', idempotencyKey: 'memory', fingerprint: 'x' },
    });
    for (let position = 0; position < rows; position++) {
      const jobId = newId('pdf_');
      const storageKey = `${account.accountId}/${jobId}-1.pdf`;
      await storage.put(storageKey, randomBytes(fileBytes));
      await serviceDb().renderJob.create({
        data: {
          id: jobId, accountId: account.accountId, kind: 'pdf', status: 'succeeded', credit: 'settled', filename: 'memory', options: {},
          mediaType: 'application/pdf', byteSize: fileBytes, sha256: '0'.repeat(64), storageKey, expiresAt: new Date(now.getTime() + 3_600_000),
          groupId, finishedAt: now,
        },
      });
      await serviceDb().renderGroupMember.create({
        data: { groupId, position, accountId: account.accountId, state: 'admitted', jobId, html: '', options: {}, assetIds: [] },
      });
    }
    const token = signLinkToken(archiveLinkTokens, await signingSecret(serviceContext()), groupId, new Date(now.getTime() + 600_000));
    const url = `${baseUrl}/v1/batches/archive/${token}`;

    // the first download warms the route up; the second is measured against the memory after it
    await download(url, web.pid!);
    const beforeKiB = residentKiB(web.pid!);
    const { bytes, peakKiB } = await download(url, web.pid!);
    const growthMiB = (peakKiB - beforeKiB) / 1024;
    console.log(`archive of ${rows} x 1 MiB (${(bytes / 1048576).toFixed(1)} MiB): web RSS ${(beforeKiB / 1024).toFixed(1)} MiB before, peak +${growthMiB.toFixed(1)} MiB`);
    expect(bytes).toBeGreaterThan(rows * fileBytes);
    expect(growthMiB).toBeLessThan(16);
  }, 300_000);
});
