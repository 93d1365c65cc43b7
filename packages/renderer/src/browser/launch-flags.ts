// Chromium command line. The isolation flags are the outer layer of the sandbox: even if every
// in-browser check failed, no connection could leave through them.
import { TRIPWIRE_HOST } from './tripwire.ts';

/**
 * The browser-wide proxy for anything outside a job context. Its host is a reserved .invalid
 * name that the resolver rules below refuse anyway, so it can never connect anywhere; there is
 * no implicit fallback to direct connections for a fixed proxy.
 */
const DEAD_PROXY = 'http://proxy.svc.invalid:9';

export function launchFlags(userDataDir: string): string[] {
  return [
    '--headless=new',
    // runs as root in the container; the job context and the flags below are the sandbox
    '--no-sandbox',
    '--disable-gpu',
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
    // QUIC (and with it WebTransport) is UDP and would not go through the proxy
    '--disable-quic',
    // every connection goes to a proxy, loopback included (by default Chromium bypasses it)
    `--proxy-server=${DEAD_PROXY}`,
    '--proxy-bypass-list=<-loopback>',
    // no name or address resolves, except the tripwire host that job contexts use as proxy
    `--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE ${TRIPWIRE_HOST}`,
    // WebRTC would otherwise send STUN over UDP straight to any address, past the proxy
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--font-render-hinting=none',
    // a page that hoards memory crashes its own renderer early instead of starving the host
    '--js-flags=--max-old-space-size=1024',
  ];
}
