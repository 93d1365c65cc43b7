// A real S3-protocol server (s3rver, objects in a temporary directory) on 127.0.0.1 for
// tests of the S3 driver and of several processes sharing one store.
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** s3rver's built-in key pair; any client signing with it is accepted. */
export const s3Credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3 {
  endpoint: string;
  bucket: string;
  region: string;
  credentials: typeof s3Credentials;
  /** What a service process needs in its environment to use this store. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3(bucket = 'svc-test'): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'svc-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  return {
    endpoint,
    bucket,
    region,
    credentials: s3Credentials,
    env: {
      SVC_S3_BUCKET: bucket,
      SVC_S3_ENDPOINT: endpoint,
      SVC_S3_REGION: region,
      AWS_ACCESS_KEY_ID: s3Credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3Credentials.secretAccessKey,
      // the SDK's notice that later releases need Node 22 would repeat in every test process
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
