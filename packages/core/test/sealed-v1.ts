import { createCipheriv, randomBytes } from 'node:crypto';

/** A webhook signing secret as versions before row binding sealed it: v1, the kind alone as associated data. */
export function sealV1(key: Buffer, value: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from('svc webhook signing secret'));
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return `svc_sealed_v1.${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64')}`;
}
