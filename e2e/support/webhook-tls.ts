// A throwaway certificate authority and a server certificate for localhost and 127.0.0.1,
// made with the openssl command line, plus a CA bundle a child process can trust through
// NODE_EXTRA_CA_CERTS (the machine's own roots followed by the test CA).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestTls {
  dir: string;
  caCert: string;
  serverKey: string;
  serverCert: string;
  /** A file holding the machine's roots and the test CA, for NODE_EXTRA_CA_CERTS. */
  bundlePath: string;
}

const systemRoots = '/etc/ssl/certs/ca-certificates.crt';

export function makeTestTls(): TestTls {
  const dir = mkdtempSync(join(tmpdir(), 'svc-webhook-tls-'));
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path('ca.key'), '-out', path('ca.crt'), '-days', '2', '-subj', '/CN=svc webhook test CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', path('server.key'), '-out', path('server.csr'), '-subj', '/CN=localhost');
  writeFileSync(path('ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl(
    'x509', '-req', '-in', path('server.csr'), '-CA', path('ca.crt'), '-CAkey', path('ca.key'), '-CAcreateserial',
    '-out', path('server.crt'), '-days', '2', '-extfile', path('ext.cnf'),
  );
  const caCert = readFileSync(path('ca.crt'), 'utf8');
  const roots = existsSync(systemRoots) ? readFileSync(systemRoots, 'utf8') : '';
  writeFileSync(path('bundle.crt'), `${roots}\n${caCert}`);
  return {
    dir,
    caCert,
    serverKey: readFileSync(path('server.key'), 'utf8'),
    serverCert: readFileSync(path('server.crt'), 'utf8'),
    bundlePath: path('bundle.crt'),
  };
}
