// Builds the web and worker processes into plain JavaScript, so they start with Node alone: no
// TypeScript loader at run time. On Node 20 a loader's hooks run on a thread of their own with
// a V8 isolate of their own, some 39 MiB of RSS in every process (docs/benchmarks.md).
//
// Each process is one file at the depth of its source (apps/web/dist/server.mjs beside
// apps/web/src/server.ts), holding the workspace's TypeScript; what node_modules holds stays
// external and loads from there. @svc/templating is its own build (packages/templating/dist),
// found through its package's `svc-compiled` export condition: the web app's Next build keeps
// it external, and the web process must hold one instance of it, one sandbox pool.
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export const compiledCondition = 'svc-compiled';

/** The bundles: entry and output, relative to the repository's root. */
const templatingBundle = { entry: 'packages/templating/src/index.ts', output: 'packages/templating/dist/index.mjs' };
export const serviceBundles = [
  { entry: 'apps/web/src/server.ts', output: 'apps/web/dist/server.mjs' },
  { entry: 'apps/worker/src/main.ts', output: 'apps/worker/dist/main.mjs' },
  templatingBundle,
];

/**
 * The packages a bundle imports from node_modules stay external, named by the path to the file
 * they resolve to (relative, so the checkout may move). pnpm gives each package only its own
 * dependencies: a bundle in apps/web/dist could not find by name what @svc/core depends on.
 * The workspace's own packages are bundled, @svc/templating excepted (its build is imported).
 */
function externalPackages(root, output) {
  const outputDir = dirname(join(root, output));
  return {
    name: 'external-packages',
    setup(bundler) {
      bundler.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'resolving' || args.kind === 'entry-point' || isBuiltin(args.path)) return undefined;
        if (args.path.startsWith('@svc/') && !args.path.startsWith('@svc/templating')) return undefined;
        const resolved = await bundler.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'resolving' });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        const fromOutput = relative(outputDir, resolved.path);
        return { path: fromOutput.startsWith('.') ? fromOutput : `./${fromOutput}`, external: true };
      });
    },
  };
}

/**
 * A module that finds files beside it through import.meta.url (the migrations, the Prisma
 * client's own directory) still finds them from inside a bundle: its import.meta.url becomes
 * the URL its source file had. The entry point is at its source's depth and keeps its own.
 */
function sourceLocations(root, entry, output) {
  const outputDir = dirname(join(root, output));
  return {
    name: 'source-locations',
    setup(bundler) {
      bundler.onLoad({ filter: /\.(ts|mts|mjs)$/ }, async (args) => {
        const contents = await readFile(args.path, 'utf8');
        if (args.path === join(root, entry) || !contents.includes('import.meta.url')) return undefined;
        const fromOutput = relative(outputDir, args.path);
        const located = contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromOutput)}, import.meta.url).href`);
        return { contents: located, loader: args.path.endsWith('.mjs') ? 'js' : 'ts' };
      });
    },
  };
}

/** Builds every bundle under `checkout`. */
export async function buildService(checkout) {
  // loaded here: the set-up imports this module before the dependencies are installed
  const { build } = await import('esbuild');
  // the paths esbuild hands the plugins are real paths, whatever way the checkout was reached
  const root = realpathSync(checkout);
  const bundle = ({ entry, output }) =>
    build({
      absWorkingDir: root,
      entryPoints: [entry],
      outfile: output,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // what Node itself resolves a package to (esbuild would otherwise add `module`), and
      // @svc/templating to its build
      conditions: [compiledCondition],
      logLevel: 'warning',
      plugins: [externalPackages(root, output), sourceLocations(root, entry, output)],
    });
  // @svc/templating first: the others import its build
  await bundle(templatingBundle);
  await Promise.all(serviceBundles.filter((candidate) => candidate !== templatingBundle).map(bundle));
}
