// Runs before any page script when javascript is enabled. It blocks nothing (interception and
// the proxy do that); it reports attempts that Chromium refuses inside the renderer before any
// request exists, such as a cross-origin Worker or a SharedWorker from an opaque origin, so
// that those renders fail too instead of quietly rendering without the resource.

export const REPORT_BINDING = '__svcSandboxReport';

export const GUARD_REPORT_KINDS = ['worker', 'service_worker', 'websocket', 'webtransport', 'eventsource', 'webrtc', 'popup'] as const;

export type GuardReportKind = (typeof GUARD_REPORT_KINDS)[number];

/** Plain JavaScript source (not a function) so nothing depends on how TypeScript compiles it. */
export const PAGE_GUARD_SCRIPT = `(() => {
  const report = globalThis[${JSON.stringify(REPORT_BINDING)}];
  if (typeof report !== 'function') return;
  // a reused page runs it both as a new-document script and directly: wrap only once
  const installed = Symbol.for('svc.sandbox.guard');
  if (globalThis[installed]) return;
  Object.defineProperty(globalThis, installed, { value: true });
  const tell = (kind, target) => { try { report(kind, String(target)); } catch {} };
  const watchConstructor = (name, kind, describe) => {
    const Original = globalThis[name];
    if (typeof Original !== 'function') return;
    globalThis[name] = new Proxy(Original, {
      construct(target, args, newTarget) {
        tell(kind, describe(args));
        return Reflect.construct(target, args, newTarget);
      },
    });
  };
  const firstArgument = (args) => args[0];
  watchConstructor('Worker', 'worker', firstArgument);
  watchConstructor('SharedWorker', 'worker', firstArgument);
  watchConstructor('WebSocket', 'websocket', firstArgument);
  watchConstructor('WebTransport', 'webtransport', firstArgument);
  watchConstructor('EventSource', 'eventsource', firstArgument);
  watchConstructor('RTCPeerConnection', 'webrtc', (args) => JSON.stringify((args[0] && args[0].iceServers) || []));
  // the page's opaque origin is not a secure context, so service workers and WebTransport are
  // not even exposed; a page reaching for them still counts as trying
  const trapAbsent = (owner, name, kind) => {
    if (!owner || name in owner) return;
    Object.defineProperty(owner, name, { configurable: true, get() { tell(kind, name); return undefined; } });
  };
  trapAbsent(globalThis.Navigator && Navigator.prototype, 'serviceWorker', 'service_worker');
  trapAbsent(globalThis, 'WebTransport', 'webtransport');
  if (typeof ServiceWorkerContainer === 'function') {
    const register = ServiceWorkerContainer.prototype.register;
    ServiceWorkerContainer.prototype.register = function (url, ...rest) {
      tell('service_worker', url);
      return register.call(this, url, ...rest);
    };
  }
  const open = globalThis.open;
  if (typeof open === 'function') {
    globalThis.open = function (url, ...rest) {
      tell('popup', url === undefined ? 'about:blank' : url);
      return open.call(this, url, ...rest);
    };
  }
})();`;
