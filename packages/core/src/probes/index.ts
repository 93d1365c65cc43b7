// @svc/core/probes, for the processes' own servers (not for Next's routes): the probes, the
// worker's health server and the gauges read at scrape time.
export { databaseReadiness } from './database-readiness.ts';
export { startHealthServer } from './health-server.ts';
export { answerProbe, type ProbeOptions, type ReadinessChecks } from './probe-endpoints.ts';
export { type BrowserPoolStatus, observeBrowserPool, observeQueues } from '../metrics/scrape-sources.ts';
