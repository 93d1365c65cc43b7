// Chromium runs with its own sandbox on, as an account that owns nothing of the service. As
// root that is a dedicated system account (created if missing); as any other user it is that
// user, whose files the service already keeps private (see sealDataDir). Either way the browser
// starts with no new privileges, in directories of its own, and with an environment that names
// nothing of the service: a renderer exploit finds no credential to read and no tenant's file.
import { existsSync } from 'node:fs';
import { chown, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSystemAccount, type SystemAccount } from '@svc/db/system-account';
import puppeteer, { type LaunchOptions } from 'puppeteer-core';
import { FONTCONFIG_RELATIVE, fontconfigXml } from './font-config.ts';
import { headlessMode } from './launch-flags.ts';
import { seccompArch, seccompLauncher, PERL } from './seccomp-filter.ts';
import { PROFILE_PREFIX } from './stale-profiles.ts';

export const BROWSER_ACCOUNT = 'svc-chromium';

/** util-linux's setpriv: switches the account and sets no_new_privs, then execs the browser in place (same pid). */
export const SETPRIV = '/usr/bin/setpriv';

/** The account the browser runs as when the service is root; null: it runs as the service's own user. */
export function browserAccount(): SystemAccount | null {
  if (process.getuid?.() !== 0) return null;
  // looked up (or created) once per process: every restart of the browser uses it
  account ??= ensureSystemAccount(BROWSER_ACCOUNT);
  return account;
}
let account: SystemAccount | undefined;

export interface BrowserDirs {
  /** the profile (--user-data-dir); home/ and tmp/ sit inside it, so one removal drops all */
  userDataDir: string;
  home: string;
  tmp: string;
}

/** Inside the profile: the browser's HOME with its XDG directories, and its TMPDIR. */
const OWN_DIRS = ['home', 'home/.config', 'home/.config/fontconfig', 'home/.cache', 'home/.local', 'home/.local/share', 'home/.runtime', 'tmp'];

/**
 * A fresh profile with the browser's home and temporary directory inside, all 0700 and owned by
 * the browser's account, and the fontconfig file in its config home (font-config.ts).
 */
export async function makeBrowserDirs(account: SystemAccount | null): Promise<BrowserDirs> {
  // mkdtemp makes it 0700; in the system temp directory, never under the data directory
  const userDataDir = await mkdtemp(join(tmpdir(), PROFILE_PREFIX));
  const dirs = [userDataDir, ...OWN_DIRS.map((dir) => join(userDataDir, dir))];
  for (const dir of dirs) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    if (account) await chown(dir, account.uid, account.gid);
  }
  const fontConfig = join(userDataDir, 'home', '.config', ...FONTCONFIG_RELATIVE);
  await writeFile(fontConfig, fontconfigXml(), { mode: 0o600 });
  if (account) await chown(fontConfig, account.uid, account.gid);
  return { userDataDir, home: join(userDataDir, 'home'), tmp: join(userDataDir, 'tmp') };
}

/** Variables of the service's environment a browser may see: how to render, never what to reach. */
const PASSED_THROUGH = ['TZ', 'LANG', 'LC_ALL', 'FONTCONFIG_FILE', 'FONTCONFIG_PATH', 'FONTCONFIG_SYSROOT'] as const;

/** The browser's whole environment: its own home and temp dirs, the locale, time zone and fonts, nothing else. */
export function browserEnvironment(dirs: BrowserDirs, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    XDG_CONFIG_HOME: join(dirs.home, '.config'),
    XDG_CACHE_HOME: join(dirs.home, '.cache'),
    XDG_DATA_HOME: join(dirs.home, '.local', 'share'),
    XDG_RUNTIME_DIR: join(dirs.home, '.runtime'),
    LANG: 'C.UTF-8',
  };
  for (const name of PASSED_THROUGH) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export interface BrowserCommand {
  executablePath: string;
  args: string[];
}

/**
 * puppeteer's launch options for Chromium with these flags, as the browser's account, in its
 * own directories and environment. puppeteer's own default flags are computed here, because
 * the command puppeteer starts is the account switch in front of Chromium; the given flags
 * come last, and Chromium's popup blocker stays on (window.open without a user gesture does
 * nothing).
 */
export function accountLaunchOptions(options: { executablePath: string; flags: string[]; account: SystemAccount | null; dirs: BrowserDirs }) {
  const headless = headlessMode(options.executablePath);
  const chromiumArgs = [
    ...puppeteer.defaultArgs({ headless, args: options.flags }).filter((arg) => arg !== '--disable-popup-blocking'),
    // DevTools over a pipe: no debugging port that page content could reach
    '--remote-debugging-pipe',
  ];
  const command = browserCommand(options.account, options.executablePath, chromiumArgs, existsSync(SETPRIV), browserFilter());
  return {
    executablePath: command.executablePath,
    ignoreDefaultArgs: true,
    args: command.args,
    env: browserEnvironment(options.dirs),
    headless,
    pipe: true,
  } satisfies LaunchOptions;
}

/**
 * The launcher that puts the browser process under its seccomp filter (seccomp-filter.ts), or
 * null on an architecture the filter is not built for. Perl is part of every Debian system;
 * without it the browser does not start rather than start unfiltered.
 */
export function browserFilter(): string[] | null {
  const target = seccompArch();
  if (!target) return null;
  if (!existsSync(PERL)) throw new Error(`${PERL} is needed to filter Chromium's system calls`);
  return seccompLauncher(target);
}

/**
 * The command that starts the browser as its account: setpriv, which drops to the account (as
 * root) and sets no_new_privs, then the filter's launcher, which installs the seccomp filter,
 * then Chromium with its arguments; each execs the next, keeping the pid and the DevTools
 * pipe. Without setpriv a non-root service starts the launcher (or Chromium) directly: the
 * launcher sets no_new_privs itself, and Chromium does for its sandboxed children; as root it
 * refuses, since Chromium would then need --no-sandbox.
 */
export function browserCommand(
  account: SystemAccount | null,
  executablePath: string,
  args: string[],
  hasSetpriv: boolean,
  filter: string[] | null = null,
): BrowserCommand {
  const [command, ...commandArgs] = [...(filter ?? []), executablePath, ...args];
  if (!hasSetpriv) {
    if (account) throw new Error(`${SETPRIV} is needed to start Chromium as ${account.name}`);
    return { executablePath: command!, args: commandArgs };
  }
  const switchAccount = account ? [`--reuid=${account.uid}`, `--regid=${account.gid}`, '--clear-groups'] : [];
  return { executablePath: SETPRIV, args: [...switchAccount, '--no-new-privs', '--', command!, ...commandArgs] };
}
