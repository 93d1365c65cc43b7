// `npm start` on its first boot, on a port other than the default, used as its banner tells a
// person to: the Try command pasted into a shell saves a PDF (it reads the demo key from the file
// the banner names, so the banner itself holds no secret), the link in the file it names signs
// in, and the command for a new sign-in
// link, run from the checkout in another terminal without the service's settings, prints a link
// to the port the service runs on; started again on another port, the same.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from './support/files.ts';
import { npmStart, type StartedService } from './support/npm-start.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * A new terminal's environment: none of the service's settings (its port, database, address),
 * and not run by npm. Only the data directory is the service's, as the checkout's `.data` is
 * for a service started with the defaults.
 */
function terminal(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_DATA_DIR: dataDir };
  for (const name of ['PORT', 'HOST', 'SVC_PUBLIC_URL', 'DATABASE_URL', 'SVC_EMBEDDED_PG_PORT', 'NODE_ENV', 'SVC_LOG_FORMAT']) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name];
  return env;
}

/** Runs a line as pasted into a shell. */
async function paste(command: string, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  const { stdout } = await promisify(execFile)('sh', ['-c', command], { ...options, timeout: 180_000 });
  return stdout;
}

/** The text after `prefix` on the banner line that starts with it. */
function bannerLine(service: StartedService, prefix: string): string {
  const line = service.stdout().split('\n').find((each) => each.startsWith(prefix));
  if (line === undefined) throw new Error(`no "${prefix}" line in the banner:\n${service.stdout()}`);
  return line.slice(prefix.length);
}

describe('npm start, first boot', () => {
  let service: StartedService;
  beforeAll(async () => {
    service = await npmStart();
  }, 240_000);
  afterAll(async () => {
    await service?.cleanUp();
  });

  it('the banner’s Try command, pasted into a shell, saves a PDF of its page as hello.pdf', async () => {
    expect(service.port).not.toBe(3000);
    const command = bannerLine(service, 'Try: ');
    const cwd = await mkdtemp(join(tmpdir(), 'svc-try-'));
    try {
      expect(await paste(command, { cwd, env: terminal(service.dataDir) })).toBe('saved hello.pdf\n');
      const pdf = await readFile(join(cwd, 'hello.pdf'));
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdfText(pdf)).toContain('Hello from the rendering service');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  }, 240_000);

  it('the banner names the files of the demo key and sign-in link, 0600, and neither secret', async () => {
    const keyFile = bannerLine(service, 'Demo API key (in a file only this user can read; keep it): ');
    const linkFile = bannerLine(service, 'Sign in to the demo account in a browser with the link in ').replace(/ \(one use, until [^)]+\)$/, '');
    for (const file of [keyFile, linkFile]) expect((await stat(file)).mode & 0o777, file).toBe(0o600);
    const key = (await readFile(keyFile, 'utf8')).trim();
    const link = (await readFile(linkFile, 'utf8')).trim();
    expect(key).toMatch(/^svc_sk_v1_[0-9a-f]{64}$/);
    expect(link).toMatch(/\/auth\/sign-in\/svc_link_[0-9a-f]{64}$/);
    for (const secret of [key, link]) expect(service.stdout()).not.toContain(secret);
    expect(service.stdout()).toContain(`Bearer $(cat ${keyFile})`);
  });

  it('the banner says how to get a new sign-in link; that command, from the checkout, links to the service’s port', async () => {
    const linkFile = bannerLine(service, 'Sign in to the demo account in a browser with the link in ').replace(/ \(one use, until [^)]+\)$/, '');
    const first = new URL((await readFile(linkFile, 'utf8')).trim());
    expect(first.port).toBe(String(service.port));
    const command = bannerLine(service, 'A new sign-in link, any time (from this checkout): ');
    const accountId = demoAccount(service);
    expect(command).toBe(`npm run svc -- account sign-in-link ${accountId}`);
    await expectSignInLink(service, command, accountId);
  }, 240_000);

  it('started again on another port, the banner still says how to sign in, and the link follows the new port', async () => {
    const accountId = demoAccount(service);
    process.kill(service.npm.pid!, 'SIGTERM');
    expect(await service.exited, service.stderr()).toBe(0);
    const again = await npmStart({ SVC_DATA_DIR: service.dataDir });
    try {
      expect(again.port).not.toBe(service.port);
      expect(again.stdout()).not.toContain('Demo API key');
      const command = bannerLine(again, 'A sign-in link for the demo account (from this checkout): ');
      expect(command).toBe(`npm run svc -- account sign-in-link ${accountId}`);
      await expectSignInLink(again, command, accountId);
    } finally {
      await again.cleanUp();
    }
  }, 300_000);
});

function demoAccount(service: StartedService): string {
  const accountId = /^Demo account (acct_[0-9a-f]+) created/m.exec(service.stdout())?.[1];
  if (!accountId) throw new Error(`no demo account in the banner:\n${service.stdout()}`);
  return accountId;
}

/** Runs the banner's command as a person would and opens the link it prints on `service`. */
async function expectSignInLink(service: StartedService, command: string, accountId: string) {
  const printed = await paste(command, { cwd: root, env: terminal(service.dataDir) });
  const link = new URL(/sign-in link \(one use, until [^)]+\): (\S+)/.exec(printed)?.[1] ?? 'about:blank');
  expect(link.port).toBe(String(service.port));
  expect(link.pathname).toMatch(/^\/auth\/sign-in\/svc_link_/);
  // the link is the service's own: its page names the demo account
  const page = await fetch(`${service.baseUrl}${link.pathname}`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(accountId);
}
