import type { Db } from '@svc/db';
import type { ServiceConfig } from './config.ts';

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export type Clock = () => Date;

/** What every use-case receives: the database, the time, a logger and settings. Nothing is a module singleton. */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: ServiceConfig;
}

export const systemClock: Clock = () => new Date();

/** Structured one-line JSON logs on stderr. */
export function jsonLogger(component: string): Logger {
  const write = (level: string, message: string, fields?: Record<string, unknown>) => {
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, component, message, ...fields })}\n`);
  };
  return {
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
  };
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
