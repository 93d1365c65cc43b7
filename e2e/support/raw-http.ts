import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends exactly the given request head (no headers added), for header-limit tests. */
export function rawRequest(baseUrl: string, head: string, body = ''): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headText = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = headText.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const index = line.indexOf(':');
        headers[line.slice(0, index).trim().toLowerCase()] = line.slice(index + 1).trim();
      }
      let payload = rest.join('\r\n\r\n');
      if (headers['transfer-encoding'] === 'chunked') payload = dechunk(payload);
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: payload });
    });
    socket.write(head + body);
  });
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const index = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, index), 16);
    if (!size) return out;
    out += rest.slice(index + 2, index + 2 + size);
    rest = rest.slice(index + 2 + size + 2);
  }
}

/** A GET head with `count` header lines in total (Host and Connection included). */
export function headWithHeaders(path: string, host: string, count: number, valueSize = 8): string {
  const lines = [`GET ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: close'];
  for (let index = 0; lines.length - 1 < count; index++) lines.push(`x-filler-${index}: ${'v'.repeat(valueSize)}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}
