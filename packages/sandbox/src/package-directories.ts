// The directories a Node package needs to load inside a sandbox: its own and its dependencies',
// and nothing else of the checkout. pnpm keeps each package in a store directory of its own,
// node_modules/.pnpm/<name>@<version>/node_modules, beside links to the store directories of
// its dependencies; those directories, followed through the links, are the whole closure.
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { SystemAccount } from '@svc/system-accounts';
import type { ReadOnlyMount } from './sandbox-command.ts';

/**
 * Where, when the service is root, copies of package directories live for the sandbox account:
 * a checkout in a private directory (root's home, a `mktemp -d` one) is out of that account's
 * reach, and bubblewrap mounts what it is given as that account. Beside the embedded
 * database's binaries, in the service's root-owned 0755 home.
 */
export const packageCopiesHome = '/var/lib/rendering-service/sandbox-packages';

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


/**
 * The package's directories as read-only mounts at their own paths: as the service's user they
 * are mounted as they are; for another sandbox account (the service is root), each is mounted
 * from a root-owned copy the account can reach, made once per directory (the package manager's
 * store directories are named by version, so a path's content does not change).
 */
export function packageMounts(entryFile: string, account: SystemAccount | null): ReadOnlyMount[] {
  return packageDirectories(entryFile).map((dir) => ({ source: account ? reachableCopy(dir) : dir, target: dir }));
}

const copies = new Map<string, string>();

function reachableCopy(dir: string): string {
  const known = copies.get(dir);
  if (known) return known;
  const copy = join(packageCopiesHome, createHash('sha256').update(dir).digest('hex').slice(0, 24));
  if (!existsSync(join(copy, '.complete'))) {
    makeTraversable(packageCopiesHome);
    // copied beside and renamed into place, so a concurrent start never mounts half a copy
    const partial = `${copy}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
    // links stay as they are: the store's links are relative and point at directories mounted too
    cpSync(dir, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    writeFileSync(join(partial, '.complete'), `${dir}\n`);
    try {
      renameSync(partial, copy);
    } catch (error) {
      // another process made the same copy first
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(join(copy, '.complete'))) throw error;
    }
  }
  copies.set(dir, copy);
  return copy;
}

/** Creates `dir` and its missing parents as 0755 directories (explicitly: mkdir's mode is cut by the umask). */
function makeTraversable(dir: string) {
  const missing: string[] = [];
  for (let current = dir; !existsSync(current); current = dirname(current)) missing.unshift(current);
  for (const path of missing) {
    mkdirSync(path, { recursive: true });
    chmodSync(path, 0o755);
  }
}
