// A Node program in the sandbox loads a package from the checkout's node_modules, laid out as
// the package manager lays it out (a store directory per package, relative links between
// them). A checkout in a private directory (root's home, a `mktemp -d` one) is out of the
// sandbox account's reach when the service is root: the package must load all the same.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { packageDirectories, packageMounts } from '../src/package-directories.ts';
import { parserEnvironment } from '../src/run-sandboxed.ts';
import { sandboxedCommand } from '../src/sandbox-command.ts';
import { sandboxLauncher } from '../src/sandbox-launcher.ts';

let privateDir: string;
let entry: string;

beforeAll(() => {
  // mkdtemp makes it 0700: only this process's user may enter it
  privateDir = mkdtempSync(join(tmpdir(), 'svc-private-checkout-'));
  const store = join(privateDir, 'node_modules', '.pnpm');
  const leftModules = join(store, 'left@1.0.0', 'node_modules');
  const rightModules = join(store, 'right@2.0.0', 'node_modules');
  mkdirSync(join(leftModules, 'left'), { recursive: true });
  mkdirSync(join(rightModules, 'right'), { recursive: true });
  writeFileSync(join(rightModules, 'right', 'index.js'), "module.exports = 'right@2.0.0';\n");
  writeFileSync(join(rightModules, 'right', 'package.json'), '{"name": "right", "main": "index.js"}\n');
  entry = join(leftModules, 'left', 'index.js');
  writeFileSync(entry, "module.exports = 'left needs ' + require('right');\n");
  writeFileSync(join(leftModules, 'left', 'package.json'), '{"name": "left", "main": "index.js"}\n');
  // the dependency as the store links it: relative, from the dependent's node_modules
  symlinkSync(join('..', '..', 'right@2.0.0', 'node_modules', 'right'), join(leftModules, 'right'));
});

afterAll(() => {
  if (privateDir) rmSync(privateDir, { recursive: true, force: true });
});

test("a package and its dependency load in the sandbox from a checkout the sandbox account cannot enter", () => {
  expect(packageDirectories(entry).length).toBe(2);
  const launcher = sandboxLauncher();
  const { command, args } = sandboxedCommand(
    {
      command: process.execPath,
      args: ['-e', 'process.stdout.write(require(process.argv[1]))', entry],
      readOnly: [...packageMounts(entry, launcher.account), ...(process.execPath.startsWith('/usr/') ? [] : [process.execPath])],
      network: 'none',
    },
    launcher,
  );
  const output = execFileSync(command, args, { encoding: 'utf8', cwd: '/', env: { ...parserEnvironment } as NodeJS.ProcessEnv, timeout: 60_000 });
  expect(output).toBe('left needs right@2.0.0');
});

test.runIf(process.getuid?.() === 0)('as root, the package directories mounted as they are would not load', () => {
  // the same program given the checkout's own paths: bubblewrap, running as the sandbox
  // account, cannot reach them
  const launcher = sandboxLauncher();
  const { command, args } = sandboxedCommand(
    { command: process.execPath, args: ['-e', 'process.stdout.write(require(process.argv[1]))', entry], readOnly: packageDirectories(entry), network: 'none' },
    launcher,
  );
  expect(() => execFileSync(command, args, { encoding: 'utf8', cwd: '/', env: { ...parserEnvironment } as NodeJS.ProcessEnv, stdio: 'pipe', timeout: 60_000 })).toThrow();
});
