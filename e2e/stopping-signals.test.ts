// `npm start` stopped the ways supervisors stop it: systemd, `docker stop` and Kubernetes send
// SIGTERM to the main process (npm's), a person may send SIGINT to it, or signal the service's
// own process or its whole group; an OOM killer or `kill -9` ends a process outright. Each way
// must end in the ordered shutdown (the worker closes its browser, the database stops last),
// with no process left and the port free.
import { describe, expect, it } from 'vitest';
import { descendants, isAlive, npmStart, portIsFree, type Proc, type StartedService } from './support/npm-start.ts';
import { until } from './support/until.ts';

const bootstrapOf = (service: StartedService): Proc => descendants(service.npm.pid!).find((proc) => proc.args.includes('scripts/bootstrap.mjs'))!;

const stopSignals: { to: string; send: (service: StartedService) => void }[] = [
  { to: "SIGTERM to npm's process", send: (service) => process.kill(service.npm.pid!, 'SIGTERM') },
  { to: "SIGINT to npm's process", send: (service) => process.kill(service.npm.pid!, 'SIGINT') },
  { to: "SIGTERM to the service's own process", send: (service) => process.kill(bootstrapOf(service).pid, 'SIGTERM') },
  { to: 'SIGTERM to the process group', send: (service) => process.kill(-service.npm.pid!, 'SIGTERM') },
];

const serveOf = (service: StartedService): Proc => descendants(service.npm.pid!).find((proc) => proc.args.includes('scripts/serve.ts'))!;

const outrightKills: { of: string; kill: (service: StartedService) => void }[] = [
  { of: 'npm', kill: (service) => process.kill(service.npm.pid!, 'SIGKILL') },
  { of: "the service's own process", kill: (service) => process.kill(bootstrapOf(service).pid, 'SIGKILL') },
];

// each case starts a service of its own; they wait mostly on start-up, so they run side by side
describe.concurrent('stopping npm start', () => {
  it.each(stopSignals)('$to stops every process in order, and npm exits 0', async ({ send }) => {
    const service = await npmStart();
    try {
      const started = runningProcesses(service);
      send(service);
      expect(await service.exited, service.stderr()).toBe(0);
      await expectStoppedInOrder(service, started);
    } finally {
      await service.cleanUp();
    }
  }, 240_000);

  it('when the process running web, worker and database is killed outright, the processes below stop and the database stops last', async () => {
    const service = await npmStart();
    try {
      const started = runningProcesses(service);
      const serve = serveOf(service);
      const webAndWorker = started.filter((proc) => /apps\/(web|worker)\/dist\//.test(proc.args));
      expect(webAndWorker).toHaveLength(2);
      const database = started.find((proc) => proc.args.includes('postgres') && proc.args.includes(String(service.pgPort)))!;
      process.kill(serve.pid, 'SIGKILL');
      // the database stays up while the web and worker processes stop, and stops after them
      let webOrWorkerSeen = 0;
      let databaseSeen = 0;
      await until(async () => {
        const now = performance.now();
        if (webAndWorker.some(isAlive)) webOrWorkerSeen = now;
        if (isAlive(database)) databaseSeen = now;
        return started.every((proc) => !isAlive(proc));
      }, 180_000).catch(() => {
        throw new Error(`still running: ${JSON.stringify(started.filter(isAlive).map((proc) => proc.args))}\n${service.stderr()}`);
      });
      expect(databaseSeen).toBeGreaterThanOrEqual(webOrWorkerSeen);
      expect(await service.exited).toBe(1);
      expect(await portIsFree(service.port)).toBe(true);
      expect(await portIsFree(service.pgPort)).toBe(true);
      const messages = logEvents(service);
      expect(messages.some((event) => event.component === 'setup' && event.message === 'service stopped'), service.stderr()).toBe(true);
      expect(messages.filter((event) => event.level === 'error')).toEqual([]);
    } finally {
      await service.cleanUp();
    }
  }, 240_000);

  it.each(outrightKills)('when $of is killed outright, the processes below notice and stop in order', async ({ kill }) => {
    const service = await npmStart();
    try {
      const started = runningProcesses(service);
      kill(service);
      await expectStoppedInOrder(service, started);
    } finally {
      await service.cleanUp();
    }
  }, 240_000);
});

/** The service's processes, after checking that the database and the browser are among them. */
function runningProcesses(service: StartedService): Proc[] {
  const started = descendants(service.npm.pid!);
  expect(started.some((proc) => proc.args.includes('postgres') && proc.args.includes(String(service.pgPort)))).toBe(true);
  expect(started.some((proc) => proc.args.includes('chromium'))).toBe(true);
  return started;
}

async function expectStoppedInOrder(service: StartedService, started: Proc[]) {
  await until(async () => started.every((proc) => !isAlive(proc)), 90_000).catch(() => {
    throw new Error(`still running: ${JSON.stringify(started.filter(isAlive).map((proc) => proc.args))}\n${service.stderr()}`);
  });
  expect(await portIsFree(service.port)).toBe(true);
  expect(await portIsFree(service.pgPort)).toBe(true);
  // the order, from the log: the worker closed its browser before the database stopped
  const messages = logEvents(service);
  const browserClosed = messages.findIndex((event) => event.component === 'worker' && event.message === 'renderer closed');
  const stopped = messages.findIndex((event) => event.component === 'start' && event.message === 'service stopped');
  expect(browserClosed, service.stderr()).toBeGreaterThanOrEqual(0);
  expect(stopped, service.stderr()).toBeGreaterThan(browserClosed);
  expect(messages.filter((event) => event.level === 'error')).toEqual([]);
}

function logEvents(service: StartedService): { level: string; component: string; message: string }[] {
  return service
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: string; component: string; message: string });
}
