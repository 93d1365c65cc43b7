import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { ObjectStorage, StoredObject } from '../ports/object-storage.ts';
import { checkStorageKey } from './storage-key.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** The store's URL for anything but AWS itself (MinIO, Ceph, R2, a test server). */
  endpoint?: string;
  /** Put before every key, so several deployments can share one bucket. */
  prefix?: string;
  /** Only for tests; a deployment takes credentials from the SDK's provider chain (AWS_ACCESS_KEY_ID, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/**
 * Objects in an S3-compatible store: what lets web and worker processes run on different
 * machines. A PUT replaces an object whole, so readers never see part of one. The SDK loads
 * when a store is made: a process with files on a local disk never holds it.
 */
export class S3Storage implements ObjectStorage {
  readonly #client: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); client: S3Client }>;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(options: S3StorageOptions) {
    this.#bucket = options.bucket;
    this.#prefix = options.prefix ? `${options.prefix.replace(/^\/+|\/+$/g, '')}/` : '';
    this.#client = import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: options.region,
        endpoint: options.endpoint,
        credentials: options.credentials,
        // bucket-in-hostname needs wildcard DNS that self-hosted stores rarely have
        forcePathStyle: true,
        // the SDK's default CRC32 trailers are refused by several non-AWS stores
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    }));
  }

  #key(key: string): string {
    return this.#prefix + checkStorageKey(key);
  }

  async put(key: string, bytes: Uint8Array, options: { contentType?: string } = {}): Promise<void> {
    const { sdk, client } = await this.#client;
    await client.send(new sdk.PutObjectCommand({ Bucket: this.#bucket, Key: this.#key(key), Body: bytes, ContentType: options.contentType }));
  }

  async open(key: string): Promise<StoredObject | null> {
    try {
      const { sdk, client } = await this.#client;
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }));
      // in Node the body is the response's own stream
      return { stream: answer.Body as Readable, byteSize: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    try {
      const { sdk, client } = await this.#client;
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }));
    } catch (error) {
      // S3 answers 204 for a missing object; some compatible stores answer 404
      if (!isMissing(error)) throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      const { sdk, client } = await this.#client;
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.#bucket, Key: this.#key(key) }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /** Closes the client's kept-alive connections. */
  close(): void {
    void this.#client.then(({ client }) => client.destroy());
  }
}

function isMissing(error: unknown): boolean {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  // a missing bucket is a configuration error, not a missing file
  if (failure?.name === 'NoSuchBucket') return false;
  return failure?.name === 'NoSuchKey' || failure?.name === 'NotFound' || failure?.$metadata?.httpStatusCode === 404;
}
