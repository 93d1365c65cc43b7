// One Chromium process tree with its own throwaway profile directory. Knows how to start, how
// to stop politely, and how to make sure nothing of it is left running.
import { readdir, readFile, rm } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import puppeteer, { type Browser } from 'puppeteer-core';
import { RenderError } from '@svc/contracts';
import { delay, withDeadline } from '@svc/deadline';
import type { SystemAccount } from '@svc/system-accounts';
import { accountLaunchOptions, browserAccount, type BrowserDirs, makeBrowserDirs } from './browser-account.ts';
import { coalesceWrites, readThroughPipeReader } from './devtools-pipe.ts';
import { launchFlags } from './launch-flags.ts';

export interface LaunchOptions {
  executablePath: string;
  launchTimeoutMs: number;
  /** called once if the browser goes away without close() being asked for */
  onDisconnect: (instance: BrowserInstance) => void;
}

const CLOSE_GRACE_MS = 5_000;
const GROUP_EXIT_WAIT_MS = 2_000;

export class BrowserInstance {
  readonly browser: Browser;
  readonly pid: number | null;
  readonly userDataDir: string;
  renders = 0;
  inFlight = 0;
  /** no new jobs; closes once in-flight jobs are done */
  retiring = false;
  #stopping: Promise<void> | null = null;
  /** set before the service itself ends the browser (stop, or the sweep after a loss) */
  #endedByService = false;
  /** true once the launcher has exited from a signal the service did not send */
  #launcherKilled: Promise<boolean> = Promise.resolve(false);

  private constructor(browser: Browser, userDataDir: string) {
    this.browser = browser;
    this.userDataDir = userDataDir;
    this.pid = browser.process()?.pid ?? null;
  }

  static async launch(options: LaunchOptions): Promise<BrowserInstance> {
    let account: SystemAccount | null;
    let dirs: BrowserDirs;
    try {
      account = browserAccount();
      dirs = await makeBrowserDirs(account);
    } catch (error) {
      throw launchFailed(error);
    }
    const { userDataDir } = dirs;
    let browser: Browser;
    try {
      browser = await puppeteer.launch({
        ...accountLaunchOptions({ executablePath: options.executablePath, flags: launchFlags(userDataDir), dirs }),
        timeout: options.launchTimeoutMs,
        defaultViewport: null,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (error) {
      await rm(userDataDir, { recursive: true, force: true, maxRetries: 3 });
      throw launchFailed(error);
    }
    const instance = new BrowserInstance(browser, userDataDir);
    // the DevTools pipe (puppeteer's `pipe: true` gives the child fd 3 to read, fd 4 to write)
    const [, , , pipeWrite, pipeRead] = browser.process()?.stdio ?? [];
    if (pipeWrite instanceof Writable) coalesceWrites(pipeWrite);
    if (pipeRead instanceof Readable) readThroughPipeReader(browser, pipeRead);
    // Chromium runs below the launcher whose exit puppeteer reports, and dies with it a moment
    // later: from the exit on, the browser is gone, though its DevTools pipe may still answer
    const gone = () => {
      if (instance.#stopping) return;
      instance.#stopping = instance.#sweep();
      options.onDisconnect(instance);
    };
    const launcher = browser.process();
    if (launcher) {
      // registered before `gone`, whose sweep signals the group: a signal seen here first came from outside
      instance.#launcherKilled = new Promise((resolve) => launcher.once('exit', (_code, signal) => resolve(signal !== null && !instance.#endedByService)));
    }
    launcher?.once('exit', gone);
    browser.once('disconnected', gone);
    return instance;
  }

  get alive(): boolean {
    return this.#stopping === null && this.browser.connected;
  }

  /**
   * Whether the browser was ended from outside: its launcher killed by a signal the service did
   * not send (an operator's kill, not a crash of Chromium, which ends the launcher with an exit
   * code). Nothing a page does can signal the launcher, which runs outside the sandbox. Waits
   * up to `waitMs` for the launcher's exit; false if it has not exited by then.
   */
  killedFromOutside(waitMs: number): Promise<boolean> {
    return withDeadline(this.#launcherKilled, waitMs, () => false);
  }

  /** Polite close, then make sure: kill whatever is left of the process group, drop the profile. */
  stop(): Promise<void> {
    this.#endedByService = true;
    this.#stopping ??= this.#closeThenSweep();
    return this.#stopping;
  }

  async #closeThenSweep(): Promise<void> {
    await withDeadline(this.browser.close().catch(() => undefined), CLOSE_GRACE_MS, () => undefined);
    await this.#sweep();
  }

  async #sweep(): Promise<void> {
    this.#endedByService = true;
    // puppeteer starts the sandbox (bubblewrap, Chromium below it) as a process group leader;
    // a crash of the main process can leave zygote, renderer or utility children behind, which
    // the group kill collects
    if (this.pid !== null && signalGroup(this.pid, 'SIGKILL')) {
      // SIGKILL is asynchronous: stop() resolves only once no process of the group still runs
      const deadline = Date.now() + GROUP_EXIT_WAIT_MS;
      while ((await hasLiveMembers(this.pid)) && Date.now() < deadline) await delay(20);
    }
    await rm(this.userDataDir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
  }
}

function launchFailed(cause: unknown): RenderError {
  return new RenderError('renderer_failure', 'browser_launch_failed', 'Chromium did not start', { cause });
}

/**
 * Whether a process of the group is still running. Killed processes stay in the group as
 * zombies until the init process reaps them, which can take seconds; they run nothing, so
 * /proc is read to skip them. Without /proc, any member counts.
 */
async function hasLiveMembers(group: number): Promise<boolean> {
  const entries = await readdir('/proc').catch(() => null);
  if (!entries) return signalGroup(group, 0);
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // after the parenthesised command name: state, ppid, pgrp, ...
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === group && state !== 'Z') return true;
  }
  return false;
}

/** Sends a signal to a whole process group; false when the group no longer exists. */
function signalGroup(leader: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-leader, signal);
    return true;
  } catch {
    return false;
  }
}
