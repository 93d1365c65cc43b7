// The directories a Node package needs to load inside a sandbox: its own and its dependencies',
// and nothing else of the checkout. pnpm keeps each package in a store directory of its own,
// node_modules/.pnpm/<name>@<version>/node_modules, beside links to the store directories of
// its dependencies; those directories, followed through the links, are the whole closure.
import { readdirSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';

/**
 * The node_modules directories holding the package whose entry file is given and every
 * package it depends on, as real paths (a sandbox binds each at the same place, so Node's
 * resolution of the package's own requires works unchanged).
 */
export function packageDirectories(entryFile: string): string[] {
  const found = new Set<string>();
  const visit = (packageDir: string) => {
    const modules = enclosingNodeModules(packageDir);
    if (found.has(modules)) return;
    found.add(modules);
    for (const link of packageLinks(modules)) {
      const target = realTarget(link);
      if (target) visit(target);
    }
  };
  visit(realpathSync(entryFile));
  return [...found];
}

function realTarget(link: string): string | null {
  try {
    return realpathSync(link);
  } catch {
    // a dangling link (an optional dependency for another platform) is nothing to load
    return null;
  }
}

/** The nearest node_modules directory above a path. */
function enclosingNodeModules(path: string): string {
  const at = path.lastIndexOf(`${sep}node_modules${sep}`);
  if (at === -1) throw new Error(`${path} is not inside a node_modules directory`);
  return path.slice(0, at + `${sep}node_modules`.length);
}

/** The packages a node_modules directory holds, scoped ones (@scope/name) included. */
function packageLinks(modules: string): string[] {
  const links: string[] = [];
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    if (entry.name.startsWith('@')) {
      for (const scoped of readdirSync(join(modules, entry.name))) links.push(join(modules, entry.name, scoped));
    } else links.push(join(modules, entry.name));
  }
  return links;
}

