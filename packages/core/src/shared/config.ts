import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Service settings read from the environment once per process (documented in docs/configuration.md).
 * This file is where core and the apps read the environment; the processes pass on what their
 * parts need (the renderer's Chromium path, the web's port, the worker's slots).
 */
export interface ServiceConfig {
  /** Base of links the service hands out (SVC_PUBLIC_URL). */
  publicUrl: string;
  /** Whether SVC_PUBLIC_URL or PORT was set, so publicUrl is the operator's rather than the default. */
  publicUrlGiven: boolean;
  /** The data directory as given (SVC_DATA_DIR, default .data). */
  dataDir: string;
  /** The PostgreSQL server (DATABASE_URL); unset: the web and the worker refuse to start, the CLI opens the embedded one. */
  databaseUrl?: string;
  /** The embedded PostgreSQL's port (SVC_EMBEDDED_PG_PORT; unset: the running service's, else its default) and TCP listening (SVC_EMBEDDED_PG_TCP=1). */
  embeddedDatabase: { port?: number; tcp: boolean };
  /**
   * The web process: where it listens (PORT, HOST), the reverse proxies in front of it
   * (SVC_TRUSTED_PROXY_HOPS, 0 to 10), its database connections (SVC_WEB_DB_POOL) and the
   * GraphQL IDE with introspection (SVC_GRAPHQL_IDE=1).
   */
  web: { port: number; host: string; trustedProxyHops: number; dbPoolSize: number; graphqlIde: boolean };
  /**
   * The worker: background tasks at once (SVC_WORKER_CONCURRENCY), single renders and group
   * members it claims at once (SVC_WORKER_RENDER_CONCURRENCY, SVC_WORKER_BULK_CONCURRENCY: the
   * machine's cores), and a browser started with the first render rather than with the worker
   * (SVC_WORKER_LAZY_BROWSER=1).
   */
  worker: { taskConcurrency: number; renderSlots: number; bulkSlots: number; lazyBrowser: boolean };
  /** The Chromium binary (SVC_CHROMIUM_PATH); unset: the renderer's default, Debian's headless shell. */
  chromiumPath?: string;
  /** SVC_LOG_FORMAT=pretty: coloured lines for a person at a terminal instead of JSON. */
  prettyLogs: boolean;
  /** Where rendered files are kept by the local driver (SVC_DATA_DIR/files). */
  filesDir: string;
  /** The S3-compatible store that replaces the local driver when SVC_S3_BUCKET is set. */
  s3?: S3Settings;
  /** How long a rendered file stays downloadable (SVC_RETENTION_HOURS, default 7 days). */
  retentionMs: number;
  /** Lifetime of a signed download link minted on a read (capped by the file's retention). */
  downloadLinkMs: number;
  /** Bounded wait of a synchronous render request before it answers 202. */
  renderWaitMs: number;
  /** Queued renders across the service above which creation answers 503 overloaded. */
  maxRenderBacklog: number;
  /** Live (queued or running) group member jobs an account holds at once (SVC_GROUP_CONCURRENCY). */
  groupConcurrency: number;
  /** How long a worker's claim on a running job lasts before another worker may take it. */
  renderLeaseMs: number;
  /** Time limit of one adapt request, queue and browser layout included (SVC_ADAPT_TIMEOUT_SECONDS); past it 504 resize_timeout. */
  adaptTimeoutMs: number;
  /**
   * Wall time a template evaluation may wait for its CPU time (1 s) on a busy machine before it
   * is refused as 503 overloaded (SVC_TEMPLATE_OVERLOAD_SECONDS, default 10; below 1 s it acts as 1 s).
   */
  templateOverloadMs: number;
  /** Per-render timeout in the browser. */
  renderTimeoutMs: number;
  /** Claims of one job before it fails for good. */
  maxRenderAttempts: number;
  /**
   * The key that seals secrets kept in the database (SVC_SECRETS_KEY, 32 bytes as base64 or
   * hex), the key before a rotation (SVC_SECRETS_KEY_PREVIOUS), and the file a key is generated
   * into when none is set (SVC_DATA_DIR/secrets.key).
   */
  secrets: { key?: string; previousKey?: string; keyFile: string };
  /** Explicit download signing secret (SVC_SIGNING_SECRET); otherwise one is generated and stored. */
  signingSecret?: string;
  /** Outgoing email (SVC_SMTP_URL, SVC_EMAIL_FROM); unset: email delivery is not configured. */
  email?: EmailSettings;
  /** Hosts that bypass the egress address and port rules (SVC_UNSAFE_EGRESS_ALLOWLIST; development and tests only). */
  egressAllowlist: AllowlistEntry[];
  /** The AI provider (SVC_AI_BASE_URL, SVC_AI_MODEL, ...); unset: AI messages that need a model answer 503 provider_unavailable. */
  ai?: AiSettings;
  /** The worker's warm sandboxes per browser: idle ones kept (unset: sized from memory; 0: none), jobs and age before closing. */
  warmSandboxes: { size?: number; maxJobs: number; maxAgeMs: number };
  /** After SIGTERM, how long the web process answers 503 on /readyz while still serving, before it closes (SVC_SHUTDOWN_DELAY_SECONDS, default 0). */
  shutdownDelayMs: number;
  /** The bearer token /metrics requires (SVC_METRICS_TOKEN); unset: /metrics answers 404. */
  metricsToken?: string;
  /**
   * The worker's probe and metrics server (SVC_WORKER_HEALTH_PORT, SVC_WORKER_HEALTH_HOST,
   * default all interfaces); unset port: none. Port 0 takes a free one.
   */
  workerHealth?: { port: number; host: string };
}

/** Any OpenAI-compatible endpoint: hosted APIs, Ollama, vLLM, the llama.cpp server. */
export interface AiSettings {
  /** Base URL up to and including the API version, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Model of the images endpoint; unset: image proposals are never generated. */
  imageModel?: string;
  /** One model call, connection to last byte. */
  timeoutMs: number;
  /** Tries of one call on 429, 5xx and connection failures (backoff between them). */
  maxAttempts: number;
  /** Whether the model reads images (the review then shows it its rendered candidate). */
  vision: boolean;
  /** Review rounds of a message (0 to 5). */
  maxReviews: number;
}

export interface EmailSettings {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://host:465. */
  smtpUrl: string;
  from: string;
}

export interface S3Settings {
  bucket: string;
  region: string;
  /** Unset for AWS itself; the store's URL for MinIO, Ceph, R2 and the like. */
  endpoint?: string;
  /** Key prefix, for several deployments sharing one bucket. */
  prefix?: string;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): ServiceConfig {
  const number = (name: string, fallback: number) => {
    const value = env[name];
    if (value === undefined || value === '') return fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${name} must be a positive number`);
    return parsed;
  };
  const count = (name: string) => {
    const value = env[name];
    if (value === undefined || value === '') return undefined;
    if (!/^\d+$/.test(value)) throw new Error(`${name} must be a whole number`);
    return Number(value);
  };
  const port = env.PORT ?? '3000';
  const dataDir = env.SVC_DATA_DIR ?? '.data';
  const renderTimeoutMs = number('SVC_RENDER_TIMEOUT_SECONDS', 30) * 1000;
  return {
    publicUrl: (env.SVC_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    publicUrlGiven: env.SVC_PUBLIC_URL !== undefined || env.PORT !== undefined,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    embeddedDatabase: { port: env.SVC_EMBEDDED_PG_PORT ? Number(env.SVC_EMBEDDED_PG_PORT) : undefined, tcp: env.SVC_EMBEDDED_PG_TCP === '1' },
    web: {
      port: Number(port),
      host: env.HOST ?? '0.0.0.0',
      trustedProxyHops: trustedProxyHops(env.SVC_TRUSTED_PROXY_HOPS),
      dbPoolSize: Number(env.SVC_WEB_DB_POOL ?? 10),
      graphqlIde: env.SVC_GRAPHQL_IDE === '1',
    },
    worker: {
      taskConcurrency: Number(env.SVC_WORKER_CONCURRENCY ?? 4),
      renderSlots: Number(env.SVC_WORKER_RENDER_CONCURRENCY ?? 4),
      bulkSlots: Number(env.SVC_WORKER_BULK_CONCURRENCY ?? availableParallelism()),
      lazyBrowser: env.SVC_WORKER_LAZY_BROWSER === '1',
    },
    chromiumPath: env.SVC_CHROMIUM_PATH,
    prettyLogs: prettyLogs(env),
    filesDir: join(resolve(/* turbopackIgnore: true */ dataDir), 'files'),
    retentionMs: number('SVC_RETENTION_HOURS', 168) * 3_600_000,
    downloadLinkMs: number('SVC_DOWNLOAD_LINK_MINUTES', 60) * 60_000,
    renderWaitMs: number('SVC_RENDER_WAIT_SECONDS', 30) * 1000,
    maxRenderBacklog: number('SVC_MAX_RENDER_BACKLOG', 500),
    groupConcurrency: number('SVC_GROUP_CONCURRENCY', 4),
    renderTimeoutMs,
    templateOverloadMs: Math.ceil(number('SVC_TEMPLATE_OVERLOAD_SECONDS', 10) * 1000),
    adaptTimeoutMs: number('SVC_ADAPT_TIMEOUT_SECONDS', 10) * 1000,
    renderLeaseMs: number('SVC_RENDER_LEASE_SECONDS', renderTimeoutMs / 1000 + 30) * 1000,
    maxRenderAttempts: 3,
    signingSecret: env.SVC_SIGNING_SECRET || undefined,
    secrets: {
      key: env.SVC_SECRETS_KEY || undefined,
      previousKey: env.SVC_SECRETS_KEY_PREVIOUS || undefined,
      keyFile: join(resolve(/* turbopackIgnore: true */ dataDir), 'secrets.key'),
    },
    egressAllowlist: parseAllowlist(env.SVC_UNSAFE_EGRESS_ALLOWLIST),
    warmSandboxes: {
      size: count('SVC_WARM_SANDBOXES'),
      maxJobs: number('SVC_WARM_SANDBOX_JOBS', 500),
      maxAgeMs: number('SVC_WARM_SANDBOX_MINUTES', 15) * 60_000,
    },
    ai: aiSettings(env, number),
    metricsToken: env.SVC_METRICS_TOKEN || undefined,
    shutdownDelayMs: (count('SVC_SHUTDOWN_DELAY_SECONDS') ?? 0) * 1000,
    workerHealth: workerHealth(env),
    email: env.SVC_SMTP_URL
      ? { smtpUrl: env.SVC_SMTP_URL, from: env.SVC_EMAIL_FROM || `Rendering Service <no-reply@${new URL(env.SVC_PUBLIC_URL ?? 'http://localhost').hostname}>` }
      : undefined,
    s3: env.SVC_S3_BUCKET
      ? {
          bucket: env.SVC_S3_BUCKET,
          region: env.SVC_S3_REGION || 'us-east-1',
          endpoint: env.SVC_S3_ENDPOINT || undefined,
          prefix: env.SVC_S3_PREFIX || undefined,
        }
      : undefined,
  };
}

/**
 * SVC_LOG_FORMAT=pretty: coloured lines for a person at a terminal instead of JSON. Read on its
 * own as well, because a logger is made before the rest of the settings are read and checked.
 */
export function prettyLogs(env: Record<string, string | undefined> = process.env): boolean {
  return env.SVC_LOG_FORMAT === 'pretty';
}

/** Reverse proxies in front of the web process (SVC_TRUSTED_PROXY_HOPS, 0 to 10; default 0). */
function trustedProxyHops(value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  if (!/^\d+$/.test(value) || Number(value) > 10) throw new Error('SVC_TRUSTED_PROXY_HOPS must be a whole number from 0 to 10');
  return Number(value);
}

function workerHealth(env: Record<string, string | undefined>): ServiceConfig['workerHealth'] {
  const port = env.SVC_WORKER_HEALTH_PORT;
  if (port === undefined || port === '') return undefined;
  if (!/^\d+$/.test(port) || Number(port) > 65_535) throw new Error('SVC_WORKER_HEALTH_PORT must be a port number (0 takes a free one)');
  return { port: Number(port), host: env.SVC_WORKER_HEALTH_HOST || '0.0.0.0' };
}

function aiSettings(env: Record<string, string | undefined>, number: (name: string, fallback: number) => number): AiSettings | undefined {
  const baseUrl = env.SVC_AI_BASE_URL?.replace(/\/+$/, '');
  const model = env.SVC_AI_MODEL;
  if (!baseUrl || !model) return undefined;
  const maxReviews = env.SVC_AI_MAX_REVIEWS === undefined || env.SVC_AI_MAX_REVIEWS === '' ? 1 : Number(env.SVC_AI_MAX_REVIEWS);
  if (!Number.isInteger(maxReviews) || maxReviews < 0 || maxReviews > 5) throw new Error('SVC_AI_MAX_REVIEWS must be a whole number from 0 to 5');
  return {
    baseUrl,
    model,
    apiKey: env.SVC_AI_API_KEY || undefined,
    imageModel: env.SVC_AI_IMAGE_MODEL || undefined,
    timeoutMs: number('SVC_AI_TIMEOUT_SECONDS', 120) * 1000,
    maxAttempts: Math.floor(number('SVC_AI_MAX_ATTEMPTS', 3)),
    vision: env.SVC_AI_VISION === '1' || env.SVC_AI_VISION === 'true',
    maxReviews,
  };
}

/** One SVC_UNSAFE_EGRESS_ALLOWLIST entry: a host, and the one port it may use (any when null). */
export interface AllowlistEntry {
  hostname: string;
  port: number | null;
}

/** Parses SVC_UNSAFE_EGRESS_ALLOWLIST: comma-separated host[:port] entries ([v6]:port for IPv6). */
export function parseAllowlist(text: string | undefined): AllowlistEntry[] {
  if (!text) return [];
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL;
      try {
        url = new URL(`https://${entry}`);
      } catch {
        throw new Error(`SVC_UNSAFE_EGRESS_ALLOWLIST entry is not host[:port]: ${entry}`);
      }
      const explicitPort = /:(\d+)$/.exec(entry)?.[1];
      return { hostname: url.hostname, port: explicitPort ? Number(explicitPort) : null };
    });
}
