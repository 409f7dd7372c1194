// Writes the SQL each repository method issues to queries/<file>.sql (STYLE.md §14, as immich's
// server/src/queries), so a query change shows in review; queries.test.ts fails when a file is out of date.
// Run: npm run db:queries. Each method is called with the fixed arguments of samples.ts on the production Drizzle
// driver (node-postgres) over a client that records every statement instead of sending it; no database.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { format } from 'sql-formatter';
import type { Db } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { REPOSITORIES, type Case, type Method } from './samples.ts';

export const QUERIES_DIR = path.dirname(fileURLToPath(import.meta.url));
const SRC_DIR = path.resolve(QUERIES_DIR, '../src');

interface Statement {
  sql: string;
  params: unknown[];
}

/** The production driver over a client that records each statement and answers `rows(sql)` (none by default). */
function recordingDb(rows: Record<string, unknown[]> = {}) {
  const log: Statement[] = [];
  const client = {
    async query(config: { text: string }, params: unknown[] = []) {
      log.push({ sql: config.text, params });
      const match = Object.keys(rows).find((key) => config.text.includes(key));
      const answer = match === undefined ? [] : rows[match]!;
      return { rows: answer, rowCount: answer.length, command: '', fields: [] };
    },
  };
  // Not a pg.Pool, so Drizzle runs a transaction's begin/commit on this client too, and they are recorded.
  return { db: drizzle(client as unknown as pg.Pool, { schema }) as Db, log };
}

const formatParams = (params: unknown[]) => JSON.stringify(params); // Dates print as ISO strings

function formatStatement(s: Statement): string {
  const text = format(s.sql, { language: 'postgresql' });
  return (s.params.length ? `-- params: ${formatParams(s.params)}\n` : '') + `${text};`;
}

/** Repository files missing from REPOSITORIES (a new repository must not be skipped silently). */
export function unlistedRepositories(): string[] {
  const listed = new Set(REPOSITORIES.map((r) => r.source));
  return fs
    .readdirSync(SRC_DIR, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.repository.ts') && !listed.has(f))
    .sort();
}

const outputName = (source: string) => `${path.basename(source, '.ts')}.sql`;

/** Every snapshot file's name and content. Throws when a method has no sample (or a sample no method). */
export async function render(repositories = REPOSITORIES): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  // A repository that composes another's queries (the library repository) issues the same SQL for those
  // methods: its snapshot points to the first one instead of repeating it.
  const written = new Map<string, string>();
  for (const repo of repositories) {
    const methods = Object.keys(repo.create(recordingDb().db));
    const samples = repo.samples as Record<string, Case<Method> | Case<Method>[]>;
    const missing = methods.filter((m) => !(m in samples));
    const extra = Object.keys(samples).filter((m) => !methods.includes(m));
    if (missing.length || extra.length) {
      throw new Error(
        `queries/samples.ts: ${repo.name}: ` +
          [
            missing.length ? `no sample arguments for ${missing.join(', ')}` : '',
            extra.length ? `samples for methods it does not have: ${extra.join(', ')}` : '',
          ]
            .filter(Boolean)
            .join('; '),
      );
    }

    const blocks: string[] = [];
    for (const method of methods) {
      const cases = [samples[method]!].flat();
      for (const c of cases) {
        const { db, log } = recordingDb(c.rows);
        const random = Math.random;
        if (c.random !== undefined) Math.random = () => c.random!;
        let failure: string | undefined;
        try {
          await repo.create(db)[method]!(...(c.args as never[]));
        } catch (err) {
          failure = err instanceof Error ? err.message : String(err);
        } finally {
          Math.random = random;
        }
        const case_ = `${method}${c.label ? ` (${c.label})` : ''}`;
        const title = `-- ${repo.name}.${case_}`;
        const body = log.length ? log.map(formatStatement).join('\n') : '-- (no SQL)';
        const note = failure
          ? `\n-- then threw on the recorder's answer (give it rows in samples.ts): ${failure}`
          : '';
        const key = `${case_}\n${body}${note}`;
        const first = written.get(key);
        if (first) {
          blocks.push(`${title}\n-- the same SQL as ${first}\n`);
          continue;
        }
        written.set(key, `${repo.name}.${case_} (${outputName(repo.source)})`);
        blocks.push(`${title}\n${body}${note}\n`);
      }
    }
    const header =
      `-- Generated by \`npm run db:queries\` from apps/server/src/${repo.source}; do not edit.\n` +
      `-- The SQL each method issues with the sample arguments in apps/server/queries/samples.ts.\n`;
    const name = outputName(repo.source);
    if (files.has(name)) throw new Error(`queries/generate.ts: two repositories would write ${name}`);
    files.set(name, [header, ...blocks].join('\n'));
  }
  return files;
}

/** The snapshot files now in the folder. */
export function readSnapshots(): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of fs
    .readdirSync(QUERIES_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    files.set(name, fs.readFileSync(path.join(QUERIES_DIR, name), 'utf8'));
  }
  return files;
}

async function main() {
  const unlisted = unlistedRepositories();
  if (unlisted.length) throw new Error(`queries/samples.ts: add ${unlisted.join(', ')} to REPOSITORIES`);
  const files = await render();
  for (const name of readSnapshots().keys()) {
    if (!files.has(name)) fs.rmSync(path.join(QUERIES_DIR, name));
  }
  for (const [name, content] of files) fs.writeFileSync(path.join(QUERIES_DIR, name), content);
  console.log(`wrote ${files.size} files to ${path.relative(process.cwd(), QUERIES_DIR) || '.'}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
