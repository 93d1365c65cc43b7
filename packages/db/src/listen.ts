// A LISTEN connection of its own (a pooled connection cannot listen: the pool hands it to other
// statements). A connection lost to an error or a server shutdown is dropped, and the next
// connect() makes a new one; each connection gets a higher number, so a caller can tell
// whether the one listening now is the one it started on (a notice sent in between is lost).
import pg from 'pg';

export interface ListenOptions {
  url: string;
  /** Shown in pg_stat_activity. */
  applicationName?: string;
  channels: readonly string[];
  /** Called for each notice on one of the channels, with its payload ('' when it carried none). */
  onNotice: (channel: string, payload: string) => void;
  /** Called when the listening connection is lost (a later connect() listens again). */
  onLost?: (error: Error | null) => void;
}

export interface Listener {
  /** The number of the connection now listening, or null while none is. */
  readonly connection: number | null;
  /** Listens unless already listening; a call while connecting shares that attempt. Rejects when the connection failed. */
  connect(): Promise<void>;
  /** Stops listening for good. */
  close(): Promise<void>;
}

/** A listener on `channels`; nothing connects until connect() is called. */
export function listen(options: ListenOptions): Listener {
  for (const channel of options.channels) if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let count = 0;
  let closed = false;
  const lost = (lostClient: pg.Client, error: Error | null) => {
    if (client !== lostClient) return;
    client = null;
    lostClient.end().catch(() => {});
    options.onLost?.(error);
  };
  const open = async () => {
    const next = new pg.Client({ connectionString: options.url, application_name: options.applicationName });
    next.on('notification', (message) => options.onNotice(message.channel, message.payload ?? ''));
    next.on('error', (error) => lost(next, error));
    // a connection that ends without an error (the server shut down) is no longer listening either
    next.on('end', () => lost(next, null));
    try {
      await next.connect();
      await next.query(options.channels.map((channel) => `LISTEN ${channel}`).join('; '));
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    count += 1;
    client = next;
  };
  return {
    get connection() {
      return client ? count : null;
    },
    connect() {
      if (client || closed) return Promise.resolve();
      connecting ??= open().finally(() => {
        connecting = null;
      });
      return connecting;
    },
    async close() {
      closed = true;
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
