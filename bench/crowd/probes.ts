// What the crowd benchmark samples from outside the product while the storm runs: each job queue's
// backlog (pg-boss's table), tempo lookups resolved (the shared tempo cache), PostgreSQL's connections, and
// the resident memory and CPU time of every process (/proc). At the end: the database's size and the five most
// expensive statements (pg_stat_statements, which the benchmark's own PostgreSQL preloads).
import fs from 'node:fs';
import pg from 'pg';

export interface Sample {
  /** Seconds since the start. */
  s: number;
  /** Jobs waiting (created or retry) and running (active), by queue. */
  queued: Record<string, number>;
  active: Record<string, number>;
  /** Recordings with a tempo (bpm known) and all rows of the tempo cache. */
  tempoKnown: number;
  tempoRows: number;
  connections: number;
  /** PostgreSQL connections by `application_name/state` (e.g. `pacebeat-serve/idle in transaction`). */
  activity: Record<string, number>;
  /** Resident memory in MB, by process name. */
  rssMb: Record<string, number>;
  /** CPU seconds used so far (user + system), by process name (`postgres`: all of PostgreSQL's). */
  cpuS: Record<string, number>;
}

/** Clock ticks a second, as /proc/<pid>/stat counts CPU time (`getconf CLK_TCK`: 100 on Linux). */
const TICKS = 100;

/** A process's /proc/<pid>/stat fields after its name (field 3, the state, is [0]). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** CPU seconds of a process (utime + stime), with those of its exited children when `children`. */
export function cpuSeconds(pid: number | undefined, children = false): number | undefined {
  const f = pid ? statFields(pid) : undefined;
  if (!f) return undefined;
  const ticks = Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0);
  return ticks / TICKS;
}

/** CPU seconds of a process with its exited children and its live ones (processes whose parent it is). */
export function treeCpuSeconds(parent: number | undefined): number | undefined {
  let total = cpuSeconds(parent, true);
  if (total === undefined) return undefined;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(Number(name));
    if (f && Number(f[1]) === parent) total += cpuSeconds(Number(name)) ?? 0;
  }
  return total;
}

/** PostgreSQL's CPU seconds: the postmaster (its pid is the first line of `postmaster.pid`) and its backends. */
export function postgresCpuSeconds(pgDir: string): number | undefined {
  let postmaster: number;
  try {
    postmaster = Number(fs.readFileSync(`${pgDir}/postmaster.pid`, 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  return treeCpuSeconds(postmaster);
}

export function rssMb(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** The classes of tempo lookups by pg-boss priority (`TEMPO_PRIORITY` in apps/server/src/tempo/tempo.jobs.ts). */
export const DEEZER_CLASSES = ['first 50', 'unknowns', 'catalogs', 'second looks'] as const;
const deezerClass = (priority: number): string =>
  priority >= 2 ? 'first 50' : priority === 1 ? 'unknowns' : priority === 0 ? 'catalogs' : 'second looks';

export function probe(adminUrl: string) {
  const pool = new pg.Pool({ connectionString: adminUrl, max: 1 });
  return {
    /** `cpu`: CPU seconds of processes that are not in `pids` (PostgreSQL's, the benchmark's own). */
    async sample(
      s: number,
      pids: Record<string, number | undefined>,
      cpu: Record<string, number | undefined> = {},
    ): Promise<Sample> {
      const jobs = await pool.query<{ name: string; state: string; n: string }>(
        `select name, state, count(*) n from pgboss.job where state in ('created','retry','active') group by 1, 2`,
      );
      const queued: Record<string, number> = {};
      const active: Record<string, number> = {};
      for (const r of jobs.rows) {
        const into = r.state === 'active' ? active : queued;
        into[r.name] = (into[r.name] ?? 0) + Number(r.n);
      }
      const tempo = await pool.query<{ known: string; rows: string }>(
        `select count(*) filter (where bpm is not null) known, count(*) rows from tempo_recordings`,
      );
      const conn = await pool.query<{ n: string }>(
        `select count(*) n from pg_stat_activity where datname = current_database()`,
      );
      const byApp = await pool.query<{ app: string; state: string; n: string }>(
        `select coalesce(nullif(application_name, ''), '?') app, coalesce(state, '?') state, count(*) n
         from pg_stat_activity where datname = current_database() group by 1, 2`,
      );
      const activity: Record<string, number> = {};
      for (const r of byApp.rows) activity[`${r.app}/${r.state}`] = Number(r.n);
      const rss: Record<string, number> = {};
      const cpuS: Record<string, number> = {};
      for (const [name, pid] of Object.entries(pids)) {
        const mb = rssMb(pid);
        if (mb !== undefined) rss[name] = mb;
        const used = cpuSeconds(pid);
        if (used !== undefined) cpuS[name] = used;
      }
      for (const [name, used] of Object.entries(cpu)) if (used !== undefined) cpuS[name] = used;
      return {
        s,
        queued,
        active,
        tempoKnown: Number(tempo.rows[0]!.known),
        tempoRows: Number(tempo.rows[0]!.rows),
        connections: Number(conn.rows[0]!.n),
        activity,
        rssMb: rss,
        cpuS,
      };
    },
    async dbSizeMb(): Promise<number> {
      const r = await pool.query<{ b: string }>(`select pg_database_size(current_database()) b`);
      return Number(r.rows[0]!.b) / 1024 / 1024;
    },
    /** Songs Pacebeat placed in all runners' playlists (what the add calls carried). */
    async placedSongs(): Promise<number> {
      const r = await pool.query<{ n: string }>(
        `select count(*) n from playlist_target_tracks where state = 'added'`,
      );
      return Number(r.rows[0]!.n);
    },
    /** Spotify calls the playlist writer made (its purposes in the call ledger: `sync:*`). */
    async writerCalls(): Promise<number> {
      const r = await pool.query<{ n: string }>(
        `select coalesce(sum(calls), 0) n from spotify_call_ledger where purpose like 'sync:%'`,
      );
      return Number(r.rows[0]!.n);
    },
    /**
     * Deezer API calls of the tempo jobs done before `until` (the storm's end) and after, by the class of
     * the lookup (`DEEZER_CLASSES`, from the job's pg-boss priority): what each job's lookup timings
     * counted (`http:deezer`; a track handed to a tempo-audio job carries its lookup's count there).
     */
    async deezerByClass(until: Date): Promise<Record<'storm' | 'after', Record<string, number>>> {
      const r = await pool.query<{ after: boolean; priority: number; n: string }>(
        `select completed_on >= $1 after, priority,
                coalesce(sum((output->'detail'->'timings'->'n'->>'http:deezer')::int), 0) n
           from pgboss.job where name in ('tempo-lookup', 'tempo-audio') and state = 'completed'
          group by 1, 2`,
        [until],
      );
      const out = { storm: {} as Record<string, number>, after: {} as Record<string, number> };
      for (const x of r.rows) {
        const into = x.after ? out.after : out.storm;
        const cls = deezerClass(x.priority);
        into[cls] = (into[cls] ?? 0) + Number(x.n);
      }
      return out;
    },
    /** The five statements that took the most time in all, with their calls and mean time. */
    async topStatements(): Promise<Array<{ query: string; calls: number; totalMs: number; meanMs: number }>> {
      const r = await pool.query<{ query: string; calls: string; total: number; mean: number }>(
        `select query, calls, total_exec_time total, mean_exec_time mean from pg_stat_statements
          where dbid = (select oid from pg_database where datname = current_database())
          order by total_exec_time desc limit 5`,
      );
      return r.rows.map((x) => ({
        query: x.query.replace(/\s+/g, ' ').slice(0, 160),
        calls: Number(x.calls),
        totalMs: Math.round(x.total),
        meanMs: Math.round(x.mean * 100) / 100,
      }));
    },
    async resetStatements(): Promise<void> {
      await pool.query('select pg_stat_statements_reset()');
    },
    close: () => pool.end(),
  };
}
