// How the web and worker processes start, wherever they are started (`npm start`, the bench, the
// suite): from their JavaScript builds (scripts/build-service.mjs; the set-up of `npm start`
// and the bench, and the suite's global setup, build them first), with settings that keep
// them light.
//
// - No TypeScript loader: on Node 20 a loader's hooks run on a thread with its own V8 isolate,
//   some 39 MiB of RSS per process. Node's source maps stay off as well (a loader turns them on
//   for the whole process, and every module that names a map had its map read and held).
// - A young generation of 2 MiB semi-spaces instead of 16: a request's objects die young, and
//   the web process gives back some 28 MiB it never needed (docs/benchmarks.md).
// - The `svc-compiled` export condition: @svc/templating resolves to its build as well.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compiledCondition, serviceBundles } from './build-service.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Node's arguments for one of the service's processes, named by its source (`apps/web/src/server.ts`). */
export function serviceNodeArgs(source: string): string[] {
  const bundle = serviceBundles.find((candidate) => candidate.entry === source);
  if (!bundle) throw new Error(`${source} is not one of the service's processes`);
  const script = `${root}${bundle.output}`;
  if (!existsSync(script)) throw new Error(`${bundle.output} is not built: npm start, npm run bench and the suite's global setup build it`);
  return ['--max-semi-space-size=2', `--conditions=${compiledCondition}`, script];
}
