/** Set by the web server from the connection (src/server.ts); a client cannot supply it. */
export const clientAddressHeader = 'x-svc-client-address';

/** The caller's network address, for per-client limits. */
export function clientAddress(request: Request): string {
  return request.headers.get(clientAddressHeader) ?? 'unknown';
}
