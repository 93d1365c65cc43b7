/**
 * Keys are relative paths of plain segments in every driver. The service makes them, so a
 * refused key is a bug; refusing it in S3 too keeps a key valid in one driver valid in both
 * (HTTP clients and some stores collapse `..` in a URL path).
 */
export function checkStorageKey(key: string): string {
  const segments = key.split('/');
  const plain = segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..' && !/[\\\0]/.test(segment));
  if (!plain) throw new Error('storage key escapes the store');
  return key;
}
