// Cross-process cache invalidation: one dedicated PostgreSQL connection LISTENs on the channel the
// database triggers (migration `live_cache_notify`) NOTIFY on when a session ends, a user changes, a Spotify
// account is linked/changed/unlinked or a cooldown starts/ends. While that connection is down (or does not
// answer its heartbeat) the feed is not live: caches are cleared and bypassed until it is back.
import pg from 'pg';
import type { Logger } from 'pino';

export const CHANGES_CHANNEL = 'pacebeat_changes';

export interface ChangeListener {
  /** A row changed: `tag` is `kind:key`, e.g. `session:<hash>`, `user:<id>`, `spotify:<userId>`, `budget:<key>`. */
  change(tag: string): void;
  /** Notifications may have been missed (connection lost or just re-established): forget everything. */
  reset(): void;
}

export interface ChangeFeed {
  /** True while the LISTEN connection is up and answering: only then may a cache serve what it holds. */
  readonly live: boolean;
  subscribe(listener: ChangeListener): () => void;
  /**
   * Resolves once this process receives the notification `tag` (or the feed resets, or `timeoutMs` passes):
   * call it before the write, await it after, and the other processes have been sent it too.
   */
  echo(tag: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface ChangeFeedOptions {
  url: string;
  log: Logger;
  /** How often the LISTEN connection is checked with a query (a half-open TCP connection gives no error). */
  heartbeatMs?: number;
  /** How long that query may take before the connection counts as lost. */
  heartbeatTimeoutMs?: number;
  /** Delay before reconnecting after a loss. */
  reconnectMs?: number;
  /** The LISTEN connection's name in pg_stat_activity. */
  applicationName?: string;
}

/** Starts the feed; it answers at once and reports `live` once LISTEN succeeded (caches bypass until then). */
export function startChangeFeed(opts: ChangeFeedOptions): ChangeFeed {
  const { url, log, heartbeatMs = 2000, heartbeatTimeoutMs = 2000, reconnectMs = 1000 } = opts;
  const applicationName = opts.applicationName ?? 'pacebeat-listen';
  const listeners = new Set<ChangeListener>();
  const echoes = new Map<string, Set<() => void>>();
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const resetAll = () => {
    for (const l of listeners) l.reset();
    for (const waiters of echoes.values()) for (const w of waiters) w();
  };

  const scheduleReconnect = () => {
    if (closed || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void connect();
    }, reconnectMs);
    reconnectTimer.unref();
  };

  /** The connection `c` is gone or unusable: stop serving from caches before anything else. */
  const lost = (c: pg.Client, why: string) => {
    if (c !== client) return;
    client = null;
    live = false;
    resetAll();
    log.warn({ why }, 'cache invalidation feed lost: caches bypassed until it is back');
    c.end().catch(() => undefined);
    scheduleReconnect();
  };

  async function connect() {
    if (closed || client) return;
    const c = new pg.Client({ connectionString: url, application_name: applicationName, keepAlive: true });
    c.on('error', (err) => lost(c, err.message));
    c.on('end', () => lost(c, 'connection ended'));
    c.on('notification', (n) => {
      if (c !== client || !n.payload) return;
      for (const l of listeners) l.change(n.payload);
      for (const w of echoes.get(n.payload) ?? []) w();
    });
    try {
      await c.connect();
      await c.query(`listen ${CHANGES_CHANNEL}`);
    } catch (err) {
      c.end().catch(() => undefined);
      log.warn({ err }, 'cache invalidation feed: cannot listen yet');
      scheduleReconnect();
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    resetAll(); // whatever was loaded before LISTEN may be stale
    live = true;
    log.info('cache invalidation feed listening');
  }

  const heartbeat = setInterval(() => {
    const c = client;
    if (!c) return;
    const timer = setTimeout(() => lost(c, 'heartbeat timed out'), heartbeatTimeoutMs);
    c.query('select 1').then(
      () => clearTimeout(timer),
      (err: Error) => {
        clearTimeout(timer);
        lost(c, err.message);
      },
    );
  }, heartbeatMs);
  heartbeat.unref();

  void connect();

  return {
    get live() {
      return live;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    echo(tag, timeoutMs = 1000) {
      if (!live) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const waiters = echoes.get(tag) ?? new Set();
        echoes.set(tag, waiters);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          if (waiters.size === 0 && echoes.get(tag) === waiters) echoes.delete(tag);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        waiters.add(done);
      });
    },
    async close() {
      closed = true;
      live = false;
      clearInterval(heartbeat);
      clearTimeout(reconnectTimer);
      const c = client;
      client = null;
      resetAll();
      await c?.end().catch(() => undefined);
    },
  };
}
