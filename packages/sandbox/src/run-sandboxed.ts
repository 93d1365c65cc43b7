// Running a parser of tenant bytes in the sandbox: no network, an environment built from
// nothing, a time limit and a cap on what it may print. Tenant bytes go in on standard input
// (or in a file of a sandbox directory) and nothing the parser prints is trusted beyond being
// bytes to check.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { sandboxedCommand, type SandboxSpec } from './sandbox-command.ts';
import { sandboxLauncher } from './sandbox-launcher.ts';

export type ParserSpec = Omit<SandboxSpec, 'network'>;

export type SandboxedChild = ChildProcessByStdio<Writable, Readable, Readable>;

/** A sandboxed parser's whole environment: its home and temporary directory are the sandbox's own /tmp. */
export const parserEnvironment: Readonly<Record<string, string>> = { PATH: '/usr/bin:/bin', HOME: '/tmp', TMPDIR: '/tmp', LANG: 'C.UTF-8' };

/**
 * Starts the parser with pipes on its standard streams, in a session and process group of its
 * own (no controlling terminal; killSandboxed ends all of it). Throws SandboxUnavailableError
 * when this machine has no sandbox (sandbox-launcher.ts).
 */
export function spawnSandboxed(spec: ParserSpec): SandboxedChild {
  const { command, args } = sandboxedCommand({ ...spec, network: 'none' }, sandboxLauncher());
  // (NodeJS.ProcessEnv, as Next declares it, demands NODE_ENV, which no parser has a use for)
  return spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], cwd: '/', env: { ...parserEnvironment } as NodeJS.ProcessEnv, detached: true });
}

/** Kills the sandbox's whole process group: bubblewrap, and with it everything in the sandbox. */
export function killSandboxed(child: SandboxedChild): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export interface ParserRun extends ParserSpec {
  /** Written to standard input, which is then closed. */
  input?: Uint8Array;
  timeoutMs: number;
  /** Standard output beyond this ends the run as failed. */
  maxOutputBytes: number;
}

export class ParserFailedError extends Error {
  constructor(
    readonly command: string,
    readonly outcome: string,
    readonly stderr: string,
  ) {
    super(`${command} ${outcome}${stderr ? `: ${stderr}` : ''}`);
    this.name = 'ParserFailedError';
  }
}

/** Runs the parser to its end: its standard output when it exits with 0, else a ParserFailedError. */
export async function runSandboxed(run: ParserRun): Promise<Buffer> {
  const child = spawnSandboxed(run);
  return await new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let cut: string | null = null;
    const stop = (reason: string) => {
      cut ??= reason;
      killSandboxed(child);
    };
    const timer = setTimeout(() => stop(`took longer than ${run.timeoutMs} ms`), run.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > run.maxOutputBytes) stop(`printed more than ${run.maxOutputBytes} bytes`);
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-1_000);
    });
    // a parser may stop reading early (a damaged file): its exit reports it
    child.stdin.on('error', () => {});
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (cut === null && code === 0) resolve(Buffer.concat(chunks));
      else reject(new ParserFailedError(run.command, cut ?? `ended with ${signal ?? code}`, stderr.trim()));
    });
    child.stdin.end(run.input ?? Buffer.alloc(0));
  });
}
