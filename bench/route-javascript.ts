// The dashboard's JavaScript on first load, per route, from the production build: the root
// chunks every route loads plus each route's own entry chunks (its layouts, page and error
// boundaries), as Next's client reference manifests list them; the nomodule polyfills are left
// out (modern browsers skip them). Raw and gzipped sizes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';

interface RouteJavascript {
  route: string;
  bytes: number;
  gzipBytes: number;
}

function manifests(directory: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) found.push(...manifests(path));
    else if (name === 'page_client-reference-manifest.js') found.push(path);
  }
  return found;
}

export function routeJavascript(buildDir: string): RouteJavascript[] {
  const build = JSON.parse(readFileSync(join(buildDir, 'build-manifest.json'), 'utf8')) as { rootMainFiles: string[] };
  const sizes = new Map<string, { bytes: number; gzipBytes: number }>();
  const sizeOf = (file: string) => {
    let size = sizes.get(file);
    if (!size) {
      const bytes = readFileSync(join(buildDir, file));
      size = { bytes: bytes.byteLength, gzipBytes: gzipSync(bytes, { level: 9 }).byteLength };
      sizes.set(file, size);
    }
    return size;
  };
  const routes: RouteJavascript[] = [];
  for (const path of manifests(join(buildDir, 'server', 'app'))) {
    const sandbox = { globalThis: {} as { __RSC_MANIFEST?: Record<string, { entryJSFiles: Record<string, string[]> }> } };
    runInNewContext(readFileSync(path, 'utf8'), sandbox);
    for (const [page, manifest] of Object.entries(sandbox.globalThis.__RSC_MANIFEST ?? {})) {
      const files = new Set(build.rootMainFiles);
      for (const chunks of Object.values(manifest.entryJSFiles)) for (const chunk of chunks) files.add(chunk);
      let bytes = 0;
      let gzipBytes = 0;
      for (const file of files) {
        const size = sizeOf(file.replace(/^\/_next\//, ''));
        bytes += size.bytes;
        gzipBytes += size.gzipBytes;
      }
      // route groups, (site), are not part of the path
      routes.push({ route: page.replace(/\/page$/, '').replace(/\/\([^)]+\)/g, '') || '/', bytes, gzipBytes });
    }
  }
  return routes.sort((a, b) => b.bytes - a.bytes);
}

export function printRouteJavascript(buildDir: string): void {
  const routes = routeJavascript(buildDir);
  console.log('Dashboard JavaScript on first load per route (production build), KiB raw / gzipped:');
  for (const { route, bytes, gzipBytes } of routes) {
    console.log(`  ${route.padEnd(48)} ${(bytes / 1024).toFixed(0).padStart(6)} ${(gzipBytes / 1024).toFixed(0).padStart(6)}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printRouteJavascript(process.argv[2] ?? join(import.meta.dirname, '..', 'apps', 'web', '.next'));
