import type { Logger } from '../shared/context.ts';
import type { ServiceConfig } from '../shared/config.ts';

/** Logged once at process start: an allowlist lets named hosts past the address and port rules. */
export function warnIfEgressAllowlisted(config: ServiceConfig, logger: Logger): void {
  if (config.egressAllowlist.length === 0) return;
  logger.warn('SVC_UNSAFE_EGRESS_ALLOWLIST is set: these hosts bypass the egress address and port rules; never use this in production', {
    hosts: config.egressAllowlist.map((entry) => (entry.port === null ? entry.hostname : `${entry.hostname}:${entry.port}`)),
  });
}
