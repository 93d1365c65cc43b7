// How the web and worker processes start, wherever they are started (`npm start`, the bench, the
// suite): TypeScript through tsx, then two settings that keep them light.
//
// - Node's source maps off again once tsx is loaded. tsx turns them on for the whole process,
//   so every module that names a map (Next's server, Prisma's client, fontkit and the rest of
//   node_modules) had its map read and held: sources and mappings, some 30 MiB in the web
//   process. The service logs errors by message; a stack trace names the transformed lines.
// - A young generation of 2 MiB semi-spaces instead of 16: a request's objects die young, and
//   the web process gives back some 28 MiB it never needed (docs/benchmarks.md).
const withoutSourceMaps = new URL('./without-source-maps.mjs', import.meta.url).href;

/** Node's arguments for one of the service's processes running `script`. */
export function serviceNodeArgs(script: string): string[] {
  return ['--max-semi-space-size=2', '--import', 'tsx', '--import', withoutSourceMaps, script];
}
