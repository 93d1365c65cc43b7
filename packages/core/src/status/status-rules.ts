// The bounds behind GET /v1/public-stats (docs/decisions/public.md).

/** Uptime counts the recorded minutes of the last 90 days. */
export const uptimeWindowDays = 90;
/** Fewer recorded minutes than this (an hour) is too little data: uptime_percent is null. */
export const minimumUptimeMinutes = 60;
/** No worker heartbeat for this long: downtime. */
export const downtimeAfterMs = 3 * 60_000;
/** Renderer failures are judged over this recent window... */
export const failureWindowMs = 15 * 60_000;
/** ...once at least this many renders finished in it... */
export const failureSampleMinimum = 10;
/** ...and degrade the status above this share failing for renderer reasons (timeout, renderer or internal failure). */
export const degradedFailureShare = 0.25;
/** A queue of more than this share of SVC_MAX_RENDER_BACKLOG degrades the status. */
export const degradedBacklogShare = 0.5;
/** The answer is computed at most once per this interval per process. */
export const publicStatsCacheMs = 5 * 60_000;
/** service_settings key of the operator's maintenance switch. */
export const maintenanceSettingKey = 'maintenance';
