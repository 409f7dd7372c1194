// The playlist writer's runs as the job workers logged them (`job finished` of `playlist-sync`): how many
// wrote to Spotify and how many wrote nothing. A run that writes nothing costs no Spotify call, but it holds
// a worker and reads the runner's whole library from PostgreSQL (session 25: 87 of 106 runs of a lifecycle
// day, when a follow-up came at most 5 s later).
import fs from 'node:fs';

export interface WriterRuns {
  /** Runs that ended `done`. */
  runs: number;
  /** Of them, runs that created, added or removed something. */
  wrote: number;
  /** Runs that found another writer busy, or ended otherwise (deferred, not connected). */
  other: number;
}

interface JobLine {
  job?: string;
  msg?: string;
  outcome?: { detail?: { status?: string; created?: number; added?: number; removed?: number } };
}

export function writerRuns(logFiles: string[]): WriterRuns {
  const out: WriterRuns = { runs: 0, wrote: 0, other: 0 };
  for (const file of logFiles) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue; // a process that never started
    }
    for (const line of text.split('\n')) {
      if (!line.includes('"job finished"') || !line.includes('"playlist-sync"')) continue;
      let r: JobLine;
      try {
        r = JSON.parse(line) as JobLine;
      } catch {
        continue; // a line cut short
      }
      if (r.job !== 'playlist-sync') continue;
      const d = r.outcome?.detail;
      if (d?.status !== 'done') {
        out.other++;
        continue;
      }
      out.runs++;
      if ((d.created ?? 0) + (d.added ?? 0) + (d.removed ?? 0) > 0) out.wrote++;
    }
  }
  return out;
}

/** "106 (19 wrote, 87 nothing; 4 other)". */
export const formatWriterRuns = (w: WriterRuns) =>
  `${w.runs} (${w.wrote} wrote, ${w.runs - w.wrote} nothing; ${w.other} busy or deferred)`;
