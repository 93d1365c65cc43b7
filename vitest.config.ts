import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'e2e/**/*.test.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    pool: 'forks',
    // two cores: two test files at a time, each against its own database or account
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ['default'],
  },
});
