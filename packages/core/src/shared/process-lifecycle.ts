// The service's processes run as a tree (npm start -> bootstrap -> serve -> web and worker),
// each child with an IPC channel to its parent. The channel tells the parent when the child
// is ready, and tells the child when its parent is gone: killed outright (SIGKILL, the OOM
// killer), its exit never reached the child as a stop signal, and the child must not run on
// without it, holding the port.

/** Tells the parent process that this one is ready (serve waits for it before it reports the service ready). */
export function reportReady(): void {
  process.send?.({ ready: true });
}

/** Calls `stop` once the parent process is gone; does nothing in a process started without a channel. */
export function stopWhenParentGone(stop: () => void): void {
  if (!process.channel) return;
  process.once('disconnect', stop);
}
