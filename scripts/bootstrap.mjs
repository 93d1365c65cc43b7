#!/usr/bin/env node
// Entry point of `npm start`, `npm test`, `npm run svc` and `npm run bench`.
// Plain Node with no dependencies: it must run on a machine that has only Node and npm.
// Each step does only the set-up that is missing, remembered by content stamps in .setup/.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildService, serviceBundles } from './build-service.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampDir = join(root, '.setup');
const pnpmVersion = '10.34.9';
const pnpmBin = join(root, '.tools', 'node_modules', '.bin', 'pnpm');
const quiet = process.argv[2] === 'svc';
// `npm start` is a service: its set-up steps' own output (an install's progress, a build's
// route table) is kept back, and shown in the log only when a step fails
const logOnly = process.argv[2] === 'start';

/**
 * One log event on stderr, in the service's log format (packages/core/src/wiring/logger.ts):
 * a JSON line, or for SVC_LOG_FORMAT=pretty a line for a person.
 */
function log(message, level = 'info', fields = {}) {
  if (quiet && level === 'info') return;
  const time = new Date().toISOString();
  if (process.env.SVC_LOG_FORMAT === 'pretty') {
    const details = Object.entries(fields).map(([key, value]) => `\n    ${key}: ${value}`).join('');
    process.stderr.write(`[${time.slice(11, 23)}] ${level.toUpperCase()} (${process.pid}): setup: ${message}${details}\n`);
  } else {
    process.stderr.write(`${JSON.stringify({ level, time, pid: process.pid, component: 'setup', message, ...fields })}\n`);
  }
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : logOnly ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, ...options.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    const output = logOnly ? { output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().slice(-8000) } : {};
    log(`failed: ${command} ${args.join(' ')}`, 'error', { status: result.status, ...output });
    process.exit(result.status ?? 1);
  }
}

function fingerprint(paths) {
  const hash = createHash('sha256');
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) {
        if (['node_modules', '.next', 'generated', 'dist', '.data', 'test'].includes(name)) continue;
        visit(join(path, name));
      }
      return;
    }
    hash.update(relative(root, path));
    hash.update(readFileSync(path));
  };
  for (const path of paths) visit(join(root, path));
  return hash.digest('hex');
}

function step(name, inputs, action) {
  const stampFile = join(stampDir, name);
  const current = fingerprint(inputs);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === current) return;
  const stamp = () => {
    mkdirSync(stampDir, { recursive: true });
    writeFileSync(stampFile, current);
  };
  // an action may be asynchronous: the stamp is written once it has finished
  const result = action();
  return result instanceof Promise ? result.then(stamp) : stamp();
}

function ensurePnpm() {
  if (existsSync(pnpmBin)) return;
  log(`installing pnpm ${pnpmVersion} into .tools`);
  run('npm', ['install', '--prefix', join(root, '.tools'), '--no-audit', '--no-fund', '--loglevel=error', `pnpm@${pnpmVersion}`]);
}

function ensureDependencies() {
  const manifests = ['package.json', 'pnpm-workspace.yaml', 'pnpm-lock.yaml'];
  for (const group of ['apps', 'packages']) {
    for (const name of readdirSync(join(root, group))) manifests.push(`${group}/${name}/package.json`);
  }
  manifests.push('e2e/package.json');
  const missing = !existsSync(join(root, 'node_modules', '.pnpm'));
  if (missing) rmStamp('dependencies');
  step('dependencies', manifests, () => {
    log('installing dependencies');
    const frozen = existsSync(join(root, 'pnpm-lock.yaml')) && process.env.CI ? ['--frozen-lockfile'] : [];
    // the browser tests drive the system's Chromium: Playwright never downloads one
    run(pnpmBin, ['install', ...frozen, '--reporter=append-only'], { env: { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } });
  });
}

function rmStamp(name) {
  const stampFile = join(stampDir, name);
  if (existsSync(stampFile)) writeFileSync(stampFile, '');
}

const systemPackages = [
  { binary: '/usr/lib/chromium/chromium-headless-shell', apt: 'chromium-headless-shell' },
  // the sandbox of the browser and of every parser of tenant bytes (packages/sandbox)
  { binary: '/usr/bin/bwrap', apt: 'bubblewrap' },
  { binary: '/usr/bin/qpdf', apt: 'qpdf' },
  { binary: '/usr/bin/pdfinfo', apt: 'poppler-utils' },
  { binary: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', apt: 'fonts-dejavu-core' },
  // the fonts every render may use (docs/fonts.md; the list is packages/rules/src/fonts.ts)
  { binary: '/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf', apt: 'fonts-noto-core' },
  { binary: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', apt: 'fonts-noto-cjk' },
  { binary: '/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf', apt: 'fonts-noto-color-emoji' },
  { binary: '/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf', apt: 'fonts-liberation2' },
  { binary: '/usr/share/fonts/truetype/crosextra/Carlito-Regular.ttf', apt: 'fonts-crosextra-carlito' },
  { binary: '/usr/share/fonts/truetype/crosextra/Caladea-Regular.ttf', apt: 'fonts-crosextra-caladea' },
  { binary: '/usr/share/fonts/opentype/inter/Inter-Regular.otf', apt: 'fonts-inter' },
  { binary: '/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf', apt: 'fonts-roboto-unhinted' },
  { binary: '/usr/share/fonts/truetype/open-sans/OpenSans-Regular.ttf', apt: 'fonts-open-sans' },
  { binary: '/usr/share/fonts/truetype/lato/Lato-Regular.ttf', apt: 'fonts-lato' },
  { binary: '/usr/share/fonts/truetype/firacode/FiraCode-Regular.ttf', apt: 'fonts-firacode' },
  // validates and sanitises uploaded WOFF2 brand fonts
  { binary: '/usr/bin/ots-sanitize', apt: 'opentype-sanitizer' },
  // tests only: read back the barcodes and 2D codes a render drew (packages/renderer/test/codes.test.ts)
  { binary: '/usr/bin/zbarimg', apt: 'zbar-tools' },
  { binary: '/usr/bin/dmtxread', apt: 'dmtx-utils' },
  { binary: '/usr/bin/ZXingReader', apt: 'zxing-cpp-tools' },
];

function ensureSystemPackages() {
  const missing = systemPackages.filter((item) => !existsSync(item.binary)).map((item) => item.apt);
  if (missing.length === 0) return;
  log(`installing system packages: ${missing.join(' ')}`);
  const sudo = process.getuid && process.getuid() === 0 ? [] : ['sudo'];
  const apt = (args) => run(sudo[0] ?? 'apt-get', sudo.length ? ['apt-get', ...args] : args, { env: { DEBIAN_FRONTEND: 'noninteractive' } });
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
}

function ensurePrismaClient() {
  const generated = join(root, 'packages', 'db', 'src', 'generated', 'prisma', 'client.ts');
  if (!existsSync(generated)) rmStamp('prisma-client');
  step('prisma-client', ['prisma/schema.prisma', 'packages/db/package.json'], () => {
    log('generating the Prisma client');
    run(pnpmBin, ['--filter', '@svc/db', 'exec', 'prisma', 'generate', '--config', 'prisma.config.ts'], {
      // generate never runs the schema engine; the variable stops Prisma from looking for a download
      env: { PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
    });
  });
}

/** The web and worker processes' JavaScript builds (build-service.mjs). */
function ensureServiceBuild() {
  if (!serviceBundles.every(({ output }) => existsSync(join(root, output)))) rmStamp('service-build');
  const inputs = ['apps/web/src', 'apps/worker/src', 'packages', 'prisma/schema.prisma', 'pnpm-lock.yaml', 'scripts/build-service.mjs'];
  return step('service-build', inputs, async () => {
    log('building the web and worker processes');
    await buildService(root);
  });
}

function ensureWebBuild() {
  if (!existsSync(join(root, 'apps', 'web', '.next', 'BUILD_ID'))) rmStamp('web-build');
  step('web-build', ['apps/web', 'packages', 'prisma/schema.prisma', 'pnpm-lock.yaml'], () => {
    log('building the web app');
    run(pnpmBin, ['--filter', '@svc/web', 'run', 'build'], { env: { NEXT_TELEMETRY_DISABLED: '1' } });
  });
}

/**
 * Runs the service in the foreground. This process stays until it has exited: a stop signal
 * sent to this process alone is passed on (one from a terminal reaches both anyway), and the
 * service's own exit code becomes this one, so `npm start` ends only once shutdown has.
 * package.json runs this script with `exec`, so that it is npm's own child and receives the
 * signals npm passes on (npm sends them to its shell, which would die or ignore them). If the
 * process that started this one ends without a signal reaching here (killed outright), the
 * service stops too. The channel (fd 3) tells the service when this process is gone.
 */
function serve(script, args, extraEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: root,
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...extraEnv },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  whenParentGone(() => {
    log('the process that started the service is gone; stopping', 'warn');
    child.kill('SIGTERM');
  });
  // what the service started, as it reports it: if it is killed outright, this process finishes its stop
  let started = null;
  child.on('message', (message) => {
    if (message?.service) started = { processes: message.service.processes.map(processOf).filter(Boolean), database: processOf(message.service.database) };
  });
  child.on('exit', async (code, signal) => {
    if (signal && started) {
      log(`the service process was killed (${signal}); stopping what it started`, 'warn');
      await finishStop(started);
      log('service stopped');
    }
    process.exit(code ?? (signal ? 1 : 0));
  });
}

/**
 * The stop of a service whose own process was killed: its web and worker processes notice (their
 * channel to it closes) and stop in order by themselves; once they have exited, the embedded
 * database gets its fast shutdown, as the service would have given it.
 */
async function finishStop({ processes, database }) {
  const gone = (proc) => !proc || processOf(proc.pid)?.startedAt !== proc.startedAt;
  const waitFor = async (procs, ms) => {
    for (const deadline = Date.now() + ms; Date.now() < deadline && !procs.every(gone); ) await new Promise((done) => setTimeout(done, 200));
    return procs.every(gone);
  };
  // as long as a running render may take to finish and be handed back, and the browser to close
  if (!(await waitFor(processes, 120_000))) {
    log('service processes still running after two minutes; killing them', 'warn');
    for (const proc of processes) if (!gone(proc)) process.kill(proc.pid, 'SIGKILL');
  }
  if (database && !gone(database)) {
    process.kill(database.pid, 'SIGINT');
    if (!(await waitFor([database], 60_000))) log('the embedded database did not stop within a minute', 'error');
  }
}

/** A process by pid and start time (so a reused pid is not mistaken for it), or null when there is none. */
function processOf(pid) {
  const fields = pid ? statFields(pid) : null;
  // a zombie has ended; its parent has only not collected it yet
  return fields && fields[0] !== 'Z' ? { pid, startedAt: fields[19] } : null;
}

/** The fields of /proc/PID/stat after the command name (state, parent id, ...), or null where there is none. */
function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name sits in parentheses and may hold spaces
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Calls `onGone` once this process's parent has ended: it is then adopted by another, its parent id changes. */
function whenParentGone(onGone) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (parentId() === parent) return;
    clearInterval(timer);
    onGone();
  }, 500);
  timer.unref();
}

/** The parent's id now (process.ppid is read once, at start): from /proc, or where there is none, 0 once the first parent is gone. */
function parentId() {
  const fields = statFields('self');
  if (fields) return Number(fields[1]);
  try {
    process.kill(process.ppid, 0);
    return process.ppid;
  } catch {
    return 0;
  }
}

/** Runs a TypeScript entry point with tsx in a Node of this one's version, and exits with its code. */
function exec(script, args, extraEnv = {}) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { cwd: root, stdio: 'inherit', env: { ...process.env, ...extraEnv } });
  process.exit(result.status ?? 1);
}

/** Runs vitest, then prints the plain summary line "N passed, N failed" from its JSON report. */
function runTests(args) {
  const report = join(stampDir, 'vitest-report.json');
  mkdirSync(stampDir, { recursive: true });
  const result = spawnSync(pnpmBin, ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test' },
  });
  if (existsSync(report)) {
    const summary = JSON.parse(readFileSync(report, 'utf8'));
    process.stdout.write(`\n${summary.numPassedTests} passed, ${summary.numFailedTests} failed\n`);
  }
  process.exit(result.status ?? 1);
}

const command = process.argv[2];
const rest = process.argv.slice(3);

ensurePnpm();
ensureDependencies();
ensurePrismaClient();

switch (command) {
  case 'start':
    ensureSystemPackages();
    ensureWebBuild();
    await ensureServiceBuild();
    serve('scripts/serve.ts', rest, { NODE_ENV: 'production' });
    break;
  case 'test':
    ensureSystemPackages();
    ensureWebBuild();
    // the suite's global setup builds the web and worker processes again whatever the stamp
    // (e2e/support/global-setup.ts), so a run of vitest alone tests the sources as they are;
    // the stamp made here spares each `npm start` the suite runs a build of its own
    await ensureServiceBuild();
    log('type-checking the workspace');
    run(pnpmBin, ['exec', 'tsc', '-p', '.', '--noEmit']);
    runTests(rest);
    break;
  case 'svc':
    exec('apps/cli/src/main.ts', rest);
    break;
  case 'bench':
    ensureSystemPackages();
    ensureWebBuild();
    await ensureServiceBuild();
    exec('bench/run.ts', rest, { NODE_ENV: 'production' });
    break;
  case 'soak':
    ensureSystemPackages();
    ensureWebBuild();
    await ensureServiceBuild();
    exec('bench/soak/run.ts', rest, { NODE_ENV: 'production' });
    break;
  default:
    process.stderr.write('usage: node scripts/bootstrap.mjs start|test|svc|bench|soak\n');
    process.exit(2);
}
