// Chromium command line. The isolation flags are the outer layer of the sandbox: even if every
// in-browser check failed, no connection could leave through them.
import { basename } from 'node:path';
import { TRIPWIRE_HOST } from './tripwire.ts';

/**
 * Debian's chromium-headless-shell (built from the chromium source package): Chromium's
 * headless shell, without the desktop browser's profile machinery. A fresh browser context
 * costs it a quarter of the browser-process CPU the full browser spends on one, and a job
 * opens one fresh context. The /usr/bin wrapper is a shell script that does not exec, so the
 * binary itself is launched: the pool tracks and kills Chromium by its process id.
 */
export const DEFAULT_CHROMIUM_PATH = '/usr/lib/chromium/chromium-headless-shell';

/** puppeteer's headless mode for a binary: the shell is always headless, the full browser is told. */
export function headlessMode(executablePath: string): 'shell' | true {
  return basename(executablePath).includes('headless-shell') ? 'shell' : true;
}

/**
 * The browser-wide proxy for anything outside a job context. Its host is a reserved .invalid
 * name that the resolver rules below refuse anyway, so it can never connect anywhere; there is
 * no implicit fallback to direct connections for a fixed proxy.
 */
const DEAD_PROXY = 'http://proxy.svc.invalid:9';

/**
 * No graphics stack a page can reach. --disable-gpu leaves no hardware path and, without the
 * software rasterizer, no SwiftShader either: the GPU process runs the display compositor
 * alone, with no GL for WebGL to reach. --disable-3d-apis refuses WebGL in Blink as well (on
 * its own it leaves OffscreenCanvas a SwiftShader context). The GPU process enters its sandbox
 * before any thread starts: entered later, Chromium skips it with a warning and runs the
 * process unfiltered; if it cannot be entered, the process exits rather than run without it.
 */
const GPU_FLAGS = [
  '--disable-gpu',
  '--disable-software-rasterizer',
  '--disable-3d-apis',
  '--gpu-sandbox-start-early',
  '--gpu-sandbox-failures-fatal=yes',
];

export function launchFlags(userDataDir: string): string[] {
  return [
    // no --no-sandbox: Chromium's own sandbox is on, the browser runs as an unprivileged
    // account (browser-account.ts); the job context and the flags below are layers around it
    ...GPU_FLAGS,
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--no-default-browser-check',
    `--user-data-dir=${userDataDir}`,
    // no background traffic of Chromium's own
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-domain-reliability',
    '--disable-breakpad',
    '--disable-crash-reporter',
    '--no-pings',
    '--metrics-recording-only',
    '--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater',
    // Per browser context, that is per job, Chromium 156 headless starts an omnibox-popup WebUI
    // renderer (nothing here has an omnibox) and a spare renderer for the context's next
    // navigation (there is none). Together they were two thirds of a render's CPU.
    // (puppeteer merges repeated --disable-features flags into one)
    '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup,PreloadTopChromeWebUI,SpareRendererForSitePerProcess',
    // The headless shell never sandboxes the network service (its content client says no,
    // whatever NetworkServiceSandbox is set to): as a process of its own it would run with the
    // browser's account, namespaces and filter and nothing more. In the browser process it
    // holds exactly that, and no process a page talks to is left outside Chromium's sandbox
    // but the browser itself. (puppeteer merges repeated --enable-features flags too)
    '--enable-features=NetworkServiceInProcess2',
    // QUIC (and with it WebTransport) is UDP and would not go through the proxy
    '--disable-quic',
    // every connection goes to a proxy, loopback included (by default Chromium bypasses it)
    `--proxy-server=${DEAD_PROXY}`,
    '--proxy-bypass-list=<-loopback>',
    // no name or address resolves, except the tripwire host that job contexts use as proxy
    `--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE ${TRIPWIRE_HOST}`,
    // WebRTC would otherwise send STUN over UDP straight to any address, past the proxy. The
    // first flag is the Chrome preference, the second the content-level override, which is
    // the only one the headless shell honours.
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--font-render-hinting=none',
    // a sandbox is reused by its account's next job after navigating away: no page may survive
    // in the back/forward cache to be restored into it
    '--disable-back-forward-cache',
    // a page that hoards memory crashes its own renderer early instead of starving the host
    '--js-flags=--max-old-space-size=1024',
  ];
}
