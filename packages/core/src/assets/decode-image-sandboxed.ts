// The decoding half of the image check, out of the web process. libvips parses a tenant's PNG,
// JPEG or WebP byte by byte (and, through its loaders, whatever else the bytes claim to be):
// a memory-safety bug there must not run in the process that holds the database, the
// secrets key and every tenant's requests. So a small Node program decodes the upload in the
// sandbox (@svc/sandbox: an unprivileged account, no network, no view of the service's files,
// the seccomp filter, an environment of its own) with only sharp's own package directories in
// view, and answers in two steps: the header, then, if the caller's rules let the image
// through, whether every pixel decodes. Everything it says is checked as untrusted.
import { killSandboxed, packageMounts, type SandboxedChild, sandboxLauncher, spawnSandboxed } from '@svc/sandbox';

export interface ImageHeader {
  format: string;
  width: number;
  height: number;
  pages: number;
  channels: number;
  depth: string;
  /** the size as displayed, after EXIF orientation */
  autoOrient: { width: number; height: number } | null;
}

export interface ImageDecoder {
  /** What libvips read from the header, or null when it could not read one. */
  header: ImageHeader | null;
  /** Decodes every pixel once, failing on truncation and decoder warnings and above maxPixels. */
  decode(): Promise<boolean>;
  close(): void;
}

/** Longer than any 10 MiB image takes to decode on a busy machine; past it the image counts as undecodable. */
const decodeTimeoutMs = 60_000;
/** Two short JSON lines are all the program has to say. */
const maxReplyBytes = 16 * 1024;

/**
 * Reads `size` image bytes from standard input, prints the header as a JSON line, and when a
 * "d" follows the image before the input ends, decodes every pixel and prints whether it could.
 * CommonJS for `node -e`, with sharp loaded from the path in its first argument.
 */
const DECODER = `
const sharp = require(process.argv[1]);
const size = Number(process.argv[2]);
const maxPixels = Number(process.argv[3]);
const say = (value) => process.stdout.write(JSON.stringify(value) + '\\n');
const chunks = [];
let length = 0;
let image = null;
process.stdin.on('data', (chunk) => {
  chunks.push(chunk);
  length += chunk.length;
  if (image !== null || length < size) return;
  const all = Buffer.concat(chunks);
  image = all.subarray(0, size);
  chunks.length = 0;
  chunks.push(all.subarray(size));
  sharp(image, { limitInputPixels: false }).metadata().then(
    (m) => say({ header: { format: m.format, width: m.width, height: m.height, pages: m.pages ?? 1, channels: m.channels, depth: m.depth, autoOrient: m.autoOrient ?? null } }),
    () => say({ header: null }),
  );
});
process.stdin.on('end', () => {
  if (image === null || !Buffer.concat(chunks).includes('d')) return;
  sharp(image, { failOn: 'warning', limitInputPixels: maxPixels }).raw().toBuffer().then(() => say({ decoded: true }), () => say({ decoded: false }));
});
`;

let sharpEntry: string | undefined;
/** sharp's entry file on disk, found at run time so no bundler follows it (as the templating sandbox finds its worker). */
function sharpEntryFile(): string {
  if (!sharpEntry) {
    const { createRequire } = process.getBuiltinModule('node:module');
    sharpEntry = createRequire(import.meta.url).resolve(['sharp'].join(''));
  }
  return sharpEntry;
}

/** Starts the decoder on these bytes and waits for the header. */
export async function openImageDecoder(bytes: Buffer, maxPixels: number): Promise<ImageDecoder> {
  const entry = sharpEntryFile();
  const node = process.execPath;
  const child = spawnSandboxed({
    command: node,
    args: ['--max-old-space-size=64', '-e', DECODER, entry, String(bytes.length), String(maxPixels)],
    readOnly: [...packageMounts(entry, sandboxLauncher().account), ...(node.startsWith('/usr/') ? [] : [node])],
  });
  const replies = new Replies(child);
  const timer = setTimeout(() => killSandboxed(child), decodeTimeoutMs);
  child.stdin.on('error', () => {});
  child.stdin.write(bytes);
  const header = parseHeader(await replies.next());
  const close = () => {
    clearTimeout(timer);
    killSandboxed(child);
  };
  return {
    header,
    async decode() {
      child.stdin.end('d');
      const reply = await replies.next();
      return typeof reply === 'object' && reply !== null && (reply as { decoded?: unknown }).decoded === true;
    },
    close,
  };
}

/** The program's JSON lines in order; null for each one it never said (it ended, crashed or was killed). */
class Replies {
  #lines: string[] = [];
  #waiting: ((line: string | null) => void)[] = [];
  #buffered = '';
  #size = 0;
  #ended = false;

  constructor(child: SandboxedChild) {
    child.stdout.on('data', (chunk: Buffer) => {
      this.#size += chunk.length;
      if (this.#size > maxReplyBytes) return killSandboxed(child);
      this.#buffered += chunk.toString('utf8');
      for (let at = this.#buffered.indexOf('\n'); at !== -1; at = this.#buffered.indexOf('\n')) {
        this.#push(this.#buffered.slice(0, at));
        this.#buffered = this.#buffered.slice(at + 1);
      }
    });
    // a program that could not start, crashed or was killed says nothing more
    child.on('close', () => this.#end());
    child.on('error', () => this.#end());
  }

  #end() {
    this.#ended = true;
    for (const waiter of this.#waiting.splice(0)) waiter(null);
  }

  #push(line: string) {
    const waiter = this.#waiting.shift();
    if (waiter) waiter(line);
    else this.#lines.push(line);
  }

  async next(): Promise<unknown> {
    const line = this.#lines.shift() ?? (this.#ended ? null : await new Promise<string | null>((resolve) => this.#waiting.push(resolve)));
    if (line === null) return null;
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return null;
    }
  }
}

const positive = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** The header as the program reported it, or null unless every field has the shape libvips gives it. */
function parseHeader(reply: unknown): ImageHeader | null {
  if (typeof reply !== 'object' || reply === null) return null;
  const header = (reply as { header?: unknown }).header;
  if (typeof header !== 'object' || header === null) return null;
  const { format, width, height, pages, channels, depth, autoOrient } = header as Record<string, unknown>;
  if (typeof format !== 'string' || typeof depth !== 'string' || !positive(width) || !positive(height) || !positive(pages) || !positive(channels)) return null;
  let oriented: ImageHeader['autoOrient'] = null;
  if (autoOrient !== null && autoOrient !== undefined) {
    const { width: shownWidth, height: shownHeight } = autoOrient as Record<string, unknown>;
    if (typeof autoOrient !== 'object' || !positive(shownWidth) || !positive(shownHeight)) return null;
    oriented = { width: shownWidth, height: shownHeight };
  }
  return { format, width, height, pages, channels, depth, autoOrient: oriented };
}
