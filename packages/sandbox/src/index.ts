export { defaultTmpBytes, type ReadOnlyMount, type SandboxSpec, type SandboxedCommand, sandboxedCommand, SETPRIV } from './sandbox-command.ts';
export { BWRAP, decideLauncher, SANDBOX_ACCOUNT, type SandboxLauncher, sandboxLauncher, SandboxUnavailableError, UNSANDBOXED_DEV_FLAG } from './sandbox-launcher.ts';
export { killSandboxed, type ParserRun, type ParserSpec, ParserFailedError, parserEnvironment, runSandboxed, type SandboxedChild, spawnSandboxed } from './run-sandboxed.ts';
export { DENIED_CALLS, type DeniedCall, PERL, seccompArch, seccompLauncher, seccompProgram } from './seccomp-filter.ts';
export { packageCopiesHome, packageDirectories, packageMounts } from './package-directories.ts';
