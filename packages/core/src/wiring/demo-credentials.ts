// The demo account's API key and first sign-in link, written by `npm start` on first boot into
// files only the service's user can read, never onto its output: process managers keep stdout
// in their logs (the journal, a container's log), where a live key and link would outlive the
// moment a person reads them. The banner names the files instead.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export interface DemoCredentials {
  apiKey: string;
  signInUrl: string | null;
}

/** Absolute paths, so a command naming them works from any directory. */
export interface DemoCredentialFiles {
  apiKey: string;
  signInLink: string | null;
}

function demoCredentialFiles(dataDir: string): { apiKey: string; signInLink: string } {
  return { apiKey: join(resolve(dataDir), 'demo-api-key'), signInLink: join(resolve(dataDir), 'demo-sign-in-link') };
}

/** Writes each credential alone on one line into its 0600 file, replacing an earlier boot's. */
export async function writeDemoCredentials(dataDir: string, credentials: DemoCredentials): Promise<DemoCredentialFiles> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const files = demoCredentialFiles(dataDir);
  await writePrivate(files.apiKey, credentials.apiKey);
  if (credentials.signInUrl === null) return { apiKey: files.apiKey, signInLink: null };
  await writePrivate(files.signInLink, credentials.signInUrl);
  return files;
}

// created afresh (never an existing file, whose mode and owner would stay) then renamed, so the
// secret is never readable by another user, not even for a moment, and never half written
async function writePrivate(path: string, value: string): Promise<void> {
  const temporary = `${path}.tmp`;
  await rm(temporary, { force: true });
  await writeFile(temporary, `${value}\n`, { mode: 0o600, flag: 'wx' });
  await rename(temporary, path);
}
