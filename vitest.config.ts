import { defineConfig } from 'vitest/config';

// Three projects, so a developer can run one quickly (`npx vitest run --project unit`):
// - unit: pure code, no database, browser or server process;
// - renderer: the Chromium side, real browser, no database;
// - e2e: everything that needs the global setup (PostgreSQL, the web and worker processes):
//   core use-cases against a database, the worker, the CLI and the HTTP API.
// A new test file lands in e2e unless it is listed under unit or renderer.
const unit = [
  'packages/rules/test/**/*.test.ts',
  'packages/templating/test/**/*.test.ts',
  'packages/codes/test/**/*.test.ts',
  'packages/core/test/egress.test.ts',
  'packages/core/test/egress-request.test.ts',
  'packages/core/test/ai-provider.test.ts',
  'packages/core/test/templates-schema.test.ts',
  'packages/core/test/verify-font.test.ts',
  'packages/core/test/tenant-parsers.test.ts',
  'packages/core/test/group-state.test.ts',
  'packages/core/test/adapt-source-edits.test.ts',
  'packages/core/test/client-subject.test.ts',
  'packages/core/test/sealed-secrets.test.ts',
  'packages/core/test/probe-endpoints.test.ts',
  'packages/core/test/logger.test.ts',
  'packages/core/test/upload-sandbox.test.ts',
  'packages/core/test/import-layers.test.ts',
  'apps/web/test/**/*.test.ts',
  'packages/sdk/test/generated-types.test.ts',
  'packages/sdk/test/webhook-signatures.test.ts',
];
const renderer = ['packages/renderer/test/**/*.test.ts', 'packages/sandbox/test/**/*.test.ts', 'apps/worker/test/adapt-layout.test.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    // two cores: two test files at a time across all projects, each against its own database or account
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // the global teardown stops web, worker (and its browser) and the embedded database in order;
    // under load that takes longer than vitest's default 10 s, and a cut teardown leaves them running
    teardownTimeout: 60_000,
    // a busy machine answers late: a poll that names no bound of its own waits 30 s, not vitest's 1 s
    expect: { poll: { timeout: 30_000, interval: 100 } },
    reporters: ['default'],
    // Pothos goes through the same module resolution as the schema's own files, so both load
    // one copy of graphql (its package serves ESM and CommonJS builds side by side)
    server: { deps: { inline: [/@pothos\//] } },
    projects: [
      { extends: true, test: { name: 'unit', include: unit } },
      { extends: true, test: { name: 'renderer', include: renderer } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'e2e/**/*.test.ts'],
          exclude: [...unit, ...renderer, '**/node_modules/**'],
          globalSetup: ['e2e/support/global-setup.ts'],
        },
      },
    ],
  },
});
