// How core's folders depend on each other, read from the import statements: one way only (no
// circle between folders), shared/ and ports/ at the bottom, the composition root (wiring/) at
// the top where only the package's index reaches it, and the processes reaching core only
// through the package's exports.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const coreSrc = join(root, 'packages/core/src');

const specifierPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|tsx|mjs)$/.test(name) && !name.split('/').includes('node_modules') && !name.split('/').includes('.next'))
    .map((name) => join(dir, name));
}

function specifiers(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(specifierPattern)].map((match) => match[1]!);
}

/** The folder of core a file sits in; the package's index is its own. */
function folderOf(file: string): string {
  const path = relative(coreSrc, file);
  return path.includes('/') ? path.split('/')[0]! : 'index.ts';
}

/** folder -> folders it imports from, each with one import that shows it */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(coreSrc)) {
    const from = folderOf(file);
    const targets = graph.get(from) ?? new Map<string, string>();
    graph.set(from, targets);
    for (const specifier of specifiers(file)) {
      if (!specifier.startsWith('.')) continue;
      const to = folderOf(resolve(dirname(file), specifier));
      if (to !== from && !targets.has(to)) targets.set(to, `${relative(coreSrc, file)} imports ${specifier}`);
    }
  }
  return graph;
}

/** One circle of folders with the imports that close it, or null when there is none. */
function findCircle(graph: Map<string, Map<string, string>>): string[] | null {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (folder: string): string[] | null => {
    const at = path.indexOf(folder);
    if (at >= 0) {
      const circle = [...path.slice(at), folder];
      return circle.slice(1).map((to, index) => graph.get(circle[index]!)!.get(to)!);
    }
    if (done.has(folder)) return null;
    path.push(folder);
    for (const to of graph.get(folder)?.keys() ?? []) {
      const found = visit(to);
      if (found) return found;
    }
    path.pop();
    done.add(folder);
    return null;
  };
  for (const folder of graph.keys()) {
    const found = visit(folder);
    if (found) return found;
  }
  return null;
}

describe("core's folders", () => {
  const graph = folderGraph();

  it('import each other one way only', () => {
    expect(graph.size).toBeGreaterThan(10);
    expect(findCircle(graph) ?? []).toEqual([]);
  });

  it('keep shared/ and ports/ at the bottom: shared names only port types, ports import nothing', () => {
    expect([...graph.get('shared')!].filter(([to]) => to !== 'ports').map(([, example]) => example)).toEqual([]);
    expect([...graph.get('ports')!.values()]).toEqual([]);
  });

  it('leave the composition root (wiring/) to the package index', () => {
    const importers = [...graph].filter(([, targets]) => targets.has('wiring')).map(([folder, targets]) => (folder === 'index.ts' ? folder : targets.get('wiring')));
    expect(importers).toEqual(['index.ts']);
  });
});

describe('the processes', () => {
  const exported = Object.keys(JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8')).exports as Record<string, string>).map((key) =>
    key === '.' ? '@svc/core' : `@svc/core/${key.slice(2)}`,
  );
  const processFiles = [
    ...['apps/web/app', 'apps/web/src', 'apps/worker/src', 'apps/cli/src', 'scripts', 'bench'].flatMap((dir) => sourceFiles(join(root, dir))),
    ...readdirSync(join(root, 'apps/web')).filter((name) => /\.tsx?$/.test(name)).map((name) => join(root, 'apps/web', name)),
  ];

  it('reach core only through the exports of @svc/core', () => {
    expect(processFiles.length).toBeGreaterThan(50);
    const outside = processFiles.flatMap((file) =>
      specifiers(file)
        .filter((specifier) =>
          specifier.startsWith('@svc/core') ? !exported.includes(specifier) : specifier.startsWith('.') && resolve(dirname(file), specifier).startsWith(`${join(root, 'packages/core')}/`),
        )
        .map((specifier) => `${relative(root, file)} imports ${specifier}`),
    );
    expect(outside).toEqual([]);
  });
});
