// The same behaviour from both storage drivers: the local disk and an S3-compatible store
// (a real s3rver over HTTP on 127.0.0.1).
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { loadConfig } from '@svc/core';
import { LocalStorage } from '../src/storage/local-storage.ts';
import type { ObjectStorage } from '../src/ports/object-storage.ts';
import { S3Storage } from '../src/storage/s3-storage.ts';
import { storageFromConfig } from '../src/wiring/service-context.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../../../e2e/support/s3.ts';

let s3: TestS3;
let localRoot: string;
const s3Stores: S3Storage[] = [];

function s3Storage(prefix?: string): S3Storage {
  const store = new S3Storage({ bucket: s3.bucket, region: s3.region, endpoint: s3.endpoint, credentials: s3.credentials, prefix });
  s3Stores.push(store);
  return store;
}

beforeAll(async () => {
  s3 = await startS3();
  localRoot = await mkdtemp(join(tmpdir(), 'svc-storage-'));
});

afterAll(async () => {
  for (const store of s3Stores) store.close();
  await s3?.close();
  await rm(localRoot, { recursive: true, force: true });
});

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function read(store: ObjectStorage, key: string) {
  const found = await store.open(key);
  if (!found) return null;
  return { bytes: await bytesOf(found.stream), byteSize: found.byteSize };
}

const drivers: [string, () => ObjectStorage][] = [
  ['local', () => new LocalStorage(localRoot)],
  ['s3', () => s3Storage()],
];

describe.each(drivers)('%s driver', (_name, make) => {
  const key = (name: string) => `acct-${randomBytes(4).toString('hex')}/${name}`;

  it('gives back the stored bytes and their size', async () => {
    const store = make();
    const bytes = randomBytes(300_000);
    const stored = key('job-1.pdf');
    await store.put(stored, bytes, { contentType: 'application/pdf' });
    const found = await read(store, stored);
    expect(found?.byteSize).toBe(bytes.length);
    expect(found?.bytes.equals(bytes)).toBe(true);
    expect(await store.exists(stored)).toBe(true);
  });

  it('answers null and false for a key that was never stored', async () => {
    const store = make();
    expect(await store.open(key('never.png'))).toBeNull();
    expect(await store.exists(key('never.png'))).toBe(false);
  });

  it('removes an object, and removing it again or one never stored succeeds', async () => {
    const store = make();
    const stored = key('job-1.png');
    await store.put(stored, Buffer.from('png bytes'));
    await store.remove(stored);
    expect(await store.exists(stored)).toBe(false);
    expect(await store.open(stored)).toBeNull();
    await expect(store.remove(stored)).resolves.toBeUndefined();
    await expect(store.remove(key('never.png'))).resolves.toBeUndefined();
  });

  it('replaces an object whole when a key is stored again', async () => {
    const store = make();
    const stored = key('job-1.webp');
    await store.put(stored, Buffer.alloc(50_000, 'a'));
    const replacement = Buffer.alloc(20_000, 'b');
    await store.put(stored, replacement);
    const found = await read(store, stored);
    expect(found?.byteSize).toBe(replacement.length);
    expect(found?.bytes.equals(replacement)).toBe(true);
  });

  it('refuses keys that leave the store', async () => {
    const store = make();
    for (const bad of ['../outside.pdf', 'acct/../../outside.pdf', '/absolute.pdf', 'acct//double.pdf', '', 'acct/.']) {
      await expect(store.put(bad, Buffer.from('x')), bad).rejects.toThrow('storage key escapes the store');
      await expect(store.open(bad), bad).rejects.toThrow('storage key escapes the store');
    }
  });
});

describe('local driver', () => {
  it('lets a reader see the old file or the new one, never part of one, while it is replaced', async () => {
    // s3rver writes objects in place, so this is checked on the disk driver only; an S3 PUT
    // is atomic by the protocol's contract
    const store = new LocalStorage(localRoot);
    const stored = 'acct-swap/job-1.pdf';
    const before = Buffer.alloc(4_000_000, 'a');
    const after = Buffer.alloc(3_000_000, 'b');
    await store.put(stored, before);
    let writing = true;
    const reads: Buffer[] = [];
    const reader = (async () => {
      while (writing) reads.push((await read(store, stored))!.bytes);
    })();
    await store.put(stored, after);
    writing = false;
    await reader;
    reads.push((await read(store, stored))!.bytes);
    for (const seen of reads) expect(seen.equals(before) || seen.equals(after)).toBe(true);
    expect(reads.at(-1)!.equals(after)).toBe(true);
    expect((await readdir(join(localRoot, 'acct-swap'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it("stores into an account's folder again after the folder was removed by hand", async () => {
    const store = new LocalStorage(localRoot);
    await store.put('acct-gone/job-1.pdf', Buffer.from('one'));
    await rm(join(localRoot, 'acct-gone'), { recursive: true });
    await store.put('acct-gone/job-2.pdf', Buffer.from('two'));
    expect((await read(store, 'acct-gone/job-2.pdf'))?.bytes.toString()).toBe('two');
    expect((await stat(join(localRoot, 'acct-gone'))).mode & 0o777).toBe(0o700);
  });
});

describe('s3 driver', () => {
  it('keeps objects under its prefix, apart from other prefixes in the same bucket', async () => {
    const staging = s3Storage('staging/');
    const production = s3Storage('production');
    await staging.put('acct/job-1.pdf', Buffer.from('staging file'));
    expect(await production.exists('acct/job-1.pdf')).toBe(false);
    expect(await s3Storage().exists('staging/acct/job-1.pdf')).toBe(true);
  });

  it('is the driver the settings pick when a bucket is set, else the local disk', () => {
    const withBucket = storageFromConfig(loadConfig({ SVC_S3_BUCKET: 'files', SVC_S3_ENDPOINT: s3.endpoint }));
    expect(withBucket).toBeInstanceOf(S3Storage);
    (withBucket as S3Storage).close();
    expect(storageFromConfig(loadConfig({}))).toBeInstanceOf(LocalStorage);
  });

  it('reports a store it cannot reach as an error, not as a missing file', async () => {
    const elsewhere = new S3Storage({ bucket: 'no-such-bucket', region: s3.region, endpoint: s3.endpoint, credentials: s3.credentials });
    s3Stores.push(elsewhere);
    await expect(elsewhere.open('acct/job-1.pdf')).rejects.toThrow();
  });
});

describe('local driver permissions', () => {
  it("keeps files for the service's user only: 0700 folders, 0600 files", async () => {
    const root = join(localRoot, `private-${randomBytes(4).toString('hex')}`);
    const store = new LocalStorage(root);
    await store.put('renders/acct/file.pdf', Buffer.from('%PDF'));
    const mode = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);
    expect(await mode(root)).toBe('700');
    expect(await mode(join(root, 'renders', 'acct'))).toBe('700');
    expect(await mode(join(root, 'renders', 'acct', 'file.pdf'))).toBe('600');
  });
});
