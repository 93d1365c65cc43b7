// Chromium runs with its own sandbox on, inside the service's sandbox (@svc/sandbox): as an
// account that owns nothing of the service when the service is root, with no new privileges,
// under the seccomp filter, in bubblewrap's namespaces with a view of the machine that holds
// the system's files, fonts and its own profile and nothing else, and with an environment that
// names nothing of the service. A renderer exploit finds no credential to read, no tenant's
// file and no other process, whichever user the service runs as.
import { existsSync } from 'node:fs';
import { chown, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SystemAccount } from '@svc/system-accounts';
import { type SandboxLauncher, sandboxedCommand, sandboxLauncher } from '@svc/sandbox';
import puppeteer, { type LaunchOptions } from 'puppeteer-core';
import { FONTCONFIG_RELATIVE, fontconfigXml } from './font-config.ts';
import { headlessMode } from './launch-flags.ts';
import { PROFILE_PREFIX } from './stale-profiles.ts';

/** The account the browser runs as when the service is root; null: it runs as the service's own user. */
export function browserAccount(): SystemAccount | null {
  return sandboxLauncher().account;
}

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
/** Those of them that name files, which the sandbox must then show. */
const FONTCONFIG_PATHS = ['FONTCONFIG_FILE', 'FONTCONFIG_PATH', 'FONTCONFIG_SYSROOT'] as const;
/** The browser's /tmp (its TMPDIR is in the profile): room for what Chromium or a library writes there regardless. */
const browserTmpBytes = 256 * 1024 * 1024;

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

/**
 * puppeteer's launch options for Chromium with these flags, in the sandbox, in its own
 * directories and environment. puppeteer's own default flags are computed here, because the
 * command puppeteer starts is the sandbox's launch chain in front of Chromium; the given flags
 * come last, and Chromium's popup blocker stays on (window.open without a user gesture does
 * nothing). The pid puppeteer sees is bubblewrap's: Chromium runs below it, in the same
 * process group, which is what the pool kills.
 */
export function accountLaunchOptions(options: { executablePath: string; flags: string[]; dirs: BrowserDirs; launcher?: SandboxLauncher }) {
  const headless = headlessMode(options.executablePath);
  const chromiumArgs = [
    ...puppeteer.defaultArgs({ headless, args: options.flags }).filter((arg) => arg !== '--disable-popup-blocking'),
    // DevTools over a pipe: no debugging port that page content could reach
    '--remote-debugging-pipe',
  ];
  // a Chromium or fontconfig of the operator's choosing outside /usr is made visible, read-only
  const ownDirectory = options.executablePath.startsWith('/usr/') ? [] : [dirname(options.executablePath)];
  const env = browserEnvironment(options.dirs);
  const fontconfig = FONTCONFIG_PATHS.map((name) => env[name]).filter((path): path is string => !!path && existsSync(path));
  const command = sandboxedCommand(
    { command: options.executablePath, args: chromiumArgs, readOnly: [...ownDirectory, ...fontconfig], writable: [options.dirs.userDataDir], network: 'shared', tmpBytes: browserTmpBytes },
    options.launcher ?? sandboxLauncher(),
  );
  return {
    executablePath: command.command,
    ignoreDefaultArgs: true,
    args: command.args,
    env,
    headless,
    pipe: true,
  } satisfies LaunchOptions;
}
