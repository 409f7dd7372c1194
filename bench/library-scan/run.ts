// bench/library-scan: a full library scan of simulated users by the product's code, in development-mode
// semantics. For ana.runs (default world) and max.miles (large world) it prints Spotify calls by endpoint
// and priority; calls per track found against the lower bound the world's library allows (every page
// that must be read, at development mode's page sizes; target ≤ 1.1×); the days a full scan takes under a
// 1,000-call daily quota; pages read twice after a forced quota stop half-way (target 0); wall time; and
// what each catalog group and release kind adds for its calls. Not a test.
//
//   node bench/library-scan/run.ts [--only ana.runs|max.miles] [--no-resume] [--groups album,single]
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { startSandbox } from '@pacebeat/sandbox';
import type { WorldSize } from '@pacebeat/sandbox/world/sizes';
import { startEmbeddedPostgres } from '../../apps/server/src/db/embedded.ts';
import { CEILINGS, PRIORITIES, type Priority } from '../../apps/server/src/spotify/budget.ts';
import { PER_USER_TABLES, startScan } from './scan.ts';
import { groupValue, libraryTruth, lowerBound, type Group, type GroupRow } from './truth.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const GROUPS_SETTING = option('--groups') ?? 'album,single';
const QUOTA = 1000;
const CASES: Array<{ size: WorldSize; user: string }> = [
  { size: 'default', user: 'ana.runs' },
  { size: 'large', user: 'max.miles' },
].filter((c) => !option('--only') || c.user === option('--only')) as Array<{ size: WorldSize; user: string }>;
const progress = (s: string) => process.stderr.write(`${s}\n`);
const pad = (s: string | number, n: number) => String(s).padEnd(n);
const num = (s: string | number, n: number) => String(s).padStart(n);

/** Days until every call is made, spending a 1,000-call day by priority as the budget does (CEILINGS). */
function daysUnderQuota(callsByPriority: Map<Priority, number>): number {
  let days = 0;
  const left = new Map(callsByPriority);
  while ([...left.values()].some((n) => n > 0)) {
    days++;
    let used = 0;
    for (const p of PRIORITIES) {
      const cap = Math.floor(QUOTA * CEILINGS[p].daily);
      const take = Math.max(0, Math.min(left.get(p) ?? 0, cap - used));
      used += take;
      left.set(p, (left.get(p) ?? 0) - take);
    }
    if (days > 10_000) throw new Error('no progress');
  }
  return days;
}

function groupTable(title: string, rows: GroupRow[]): string[] {
  const out = [
    title,
    `| ${pad('', 14)} | calls | tracks | new recordings | new songs | new songs per call |`,
    `|${'-'.repeat(16)}|-------|--------|----------------|-----------|--------------------|`,
  ];
  for (const r of rows)
    out.push(
      `| ${pad(r.label, 14)} | ${num(r.calls, 5)} | ${num(r.tracks, 6)} | ${num(r.newRecordings, 14)} | ${num(r.newSongs, 9)} | ${num(r.calls ? (r.newSongs / r.calls).toFixed(2) : '-', 18)} |`,
    );
  return out;
}

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-bench-library-'));
await fs.chmod(dir, 0o755);
const pg = await startEmbeddedPostgres(path.join(dir, 'pg'), pino({ level: 'silent' }));
// Ctrl-C: stop the benchmark's own PostgreSQL before leaving.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void pg.stop().finally(() => process.exit(130));
  });
const report: string[] = [];
try {
  for (const c of CASES) {
    const sandbox = await startSandbox({
      size: c.size,
      rateLimit: false,
      dailyQuota: false,
      requestLogSize: 2_000_000,
    });
    try {
      const world = sandbox.world;
      const truth = libraryTruth(world, c.user);
      const groups = GROUPS_SETTING.split(',') as Group[];
      const lb = lowerBound(world, truth, groups);
      progress(
        `${c.user} (${c.size}): lower bound ${lb.total} calls for ${lb.tracks.size} tracks; scanning…`,
      );

      // 1. A full scan, start to end.
      const t0 = performance.now();
      const scan = await startScan(pg.adminUrl, sandbox, c.user, { LIBRARY_CATALOG_GROUPS: GROUPS_SETTING });
      const { units } = await scan.untilIdle();
      const wall = (performance.now() - t0) / 1000;
      const ledger = await scan.ledger();
      const found = await scan.candidates();
      const requests = sandbox.admin.requests({ service: 'spotify-api', userId: c.user });
      const ok = requests.filter((r) => r.status === 200 && r.method === 'GET').map((r) => r.url);
      const twiceFull = ok.length - new Set(ok).size;
      const sizes = await scan.sizes();
      const reads = await scan.readTimes();
      await scan.close();

      const byEndpoint = new Map<string, Map<Priority, number>>();
      const byPriority = new Map<Priority, number>();
      for (const e of ledger) {
        const m = byEndpoint.get(e.endpoint) ?? new Map<Priority, number>();
        m.set(e.priority as Priority, (m.get(e.priority as Priority) ?? 0) + e.calls);
        byEndpoint.set(e.endpoint, m);
        byPriority.set(e.priority as Priority, (byPriority.get(e.priority as Priority) ?? 0) + e.calls);
      }
      const total = [...byPriority.values()].reduce((a, b) => a + b, 0);

      // 2. The same scan stopped by the daily quota half-way, resumed the next day.
      let resume = 'not run (--no-resume)';
      if (!args.includes('--no-resume')) {
        sandbox.admin.reset();
        sandbox.admin.setConfig({
          rateLimit: false,
          requestLogSize: 2_000_000,
          dailyQuota: {
            windowSeconds: 86_400,
            maxRequests: Math.floor(total / 2),
            minRetryAfterSeconds: 13 * 3600,
          },
        });
        const again = await startScan(pg.adminUrl, sandbox, c.user, {
          LIBRARY_CATALOG_GROUPS: GROUPS_SETTING,
        });
        const first = await again.untilIdle();
        sandbox.admin.advanceClock(86_400);
        await again.restart(); // the job runs again the next day, from what PostgreSQL holds
        const second = await again.untilIdle();
        const all = sandbox.admin.requests({ service: 'spotify-api', userId: c.user });
        const got = all.filter((r) => r.status === 200 && r.method === 'GET').map((r) => r.url);
        const refused = all.filter((r) => r.status === 429).length;
        resume =
          `quota ${Math.floor(total / 2)} calls; ${first.deferred ? 'stopped by QUOTA_EXCEEDED' : 'NOT stopped'} ` +
          `(${refused} call refused), resumed the next day ${second.deferred ? 'and stopped again' : 'to the end'}; ` +
          `${got.length} pages read, **${got.length - new Set(got).size} read twice**; tracks found ${await again.candidates()} (full scan: ${found})`;
        await again.close();
      }

      const lines: string[] = [];
      lines.push(`### ${c.user} (${c.size} world), include_groups=${GROUPS_SETTING}`);
      lines.push('');
      lines.push(`| endpoint | ${PRIORITIES.join(' | ')} | calls | lower bound |`);
      lines.push(`|---|${PRIORITIES.map(() => '---:').join('|')}|---:|---:|`);
      for (const [endpoint, m] of [...byEndpoint.entries()].sort()) {
        const n = [...m.values()].reduce((a, b) => a + b, 0);
        lines.push(
          `| ${endpoint} | ${PRIORITIES.map((p) => m.get(p) ?? 0).join(' | ')} | ${n} | ${lb.byEndpoint[endpoint] ?? '-'} |`,
        );
      }
      lines.push(
        `| **all** | ${PRIORITIES.map((p) => byPriority.get(p) ?? 0).join(' | ')} | **${total}** | **${lb.total}** |`,
      );
      lines.push('');
      lines.push(
        `- tracks found: ${found} (the world allows ${lb.tracks.size}); calls per track found: ${(total / found).toFixed(3)}, lower bound ${(lb.total / lb.tracks.size).toFixed(3)}: **${(total / lb.total).toFixed(3)}× the lower bound** (target ≤ 1.1×)`,
      );
      lines.push(
        `- days for a full scan under a ${QUOTA}-call daily quota (spent by priority as the budget does): ${daysUnderQuota(byPriority)}`,
      );
      lines.push(`- pages read twice in the full scan: ${twiceFull}`);
      lines.push(`- quota stop half-way: ${resume}`);
      lines.push(
        `- wall time: ${wall.toFixed(1)} s for ${units} units (${((wall * 1000) / Math.max(1, total)).toFixed(1)} ms per call, sandbox in-process), tempo lookups queued: ${scan.tempoQueued}`,
      );
      lines.push(
        `- reading it: the status page's sources ${reads.sourcesMs.toFixed(0)} ms, the match candidates ${reads.candidatesMs.toFixed(0)} ms (median of 5)`,
      );
      lines.push('');
      lines.push(
        'Rows and bytes in PostgreSQL after the scan (bytes with indexes; this user alone in the database):',
      );
      lines.push('');
      lines.push('| table | rows | bytes | bytes per row |');
      lines.push('|---|---:|---:|---:|');
      sizes.forEach((t, i) => {
        if (i === PER_USER_TABLES) lines.push('| *shared by every user:* | | | |');
        lines.push(
          `| ${t.table} | ${t.rows} | ${(t.bytes / 1024).toFixed(0)} KiB | ${t.rows ? Math.round(t.bytes / t.rows) : '-'} |`,
        );
      });
      const perUser = sizes.slice(0, PER_USER_TABLES);
      lines.push(
        `| **per user** | ${perUser.reduce((a, t) => a + t.rows, 0)} | ${(perUser.reduce((a, t) => a + t.bytes, 0) / 1024).toFixed(0)} KiB | |`,
      );
      lines.push('');
      const value = groupValue(world, truth);
      lines.push(
        ...groupTable(
          "What each include_groups group adds, cumulative in Spotify's order (lower-bound calls):",
          value.groups,
        ),
      );
      lines.push('');
      lines.push(
        ...groupTable(
          'What each release kind of album,single adds that no other kind has (release calls):',
          value.kinds,
        ),
      );
      lines.push('');
      progress(lines.join('\n'));
      report.push(...lines);
    } finally {
      await sandbox.close();
    }
  }
  console.log(report.join('\n'));
} finally {
  await pg.stop();
  await fs.rm(dir, { recursive: true, force: true });
}
