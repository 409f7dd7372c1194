// The backup file: gzip of a plain-SQL text that psql could also read (after the migrations), in this shape:
//
//   -- Pacebeat backup, format 1
//   -- meta: {"format":1,"created_at":"…","app_version":"0.7.0","server_version":"18.4","key_id":"…",
//   --        "migrations":[{"hash":"…","created_at":…},…],"sequences":[{"table":"…","column":"…","value":42,"is_called":true}]}
//   COPY "public"."users" ("id", "email", …) FROM stdin;
//   <rows in COPY's text format: tab-separated, \N for null, backslash escapes, so one row per line>
//   \.
//   … one COPY block per table, parents before the tables that reference them …
//   -- end: {"rows":{"users":12,…}}
//
// `npm run restore` never executes SQL from the file: it parses these lines with strict patterns, checks
// every table and column against the migrated schema, and streams the rows into COPY … FROM STDIN.
import { releaseVersion } from '../../version.ts';
import type { AppliedMigration } from '../migrate.ts';

export const FORMAT = 1;

/** Both ends read and write values in one style, whatever the servers' defaults (as pg_dump does). */
export const SESSION_SETTINGS =
  "set local datestyle = 'ISO, YMD'; set local timezone = 'UTC'; set local intervalstyle = 'postgres'; set local extra_float_digits = 3";
export const FIRST_LINE = `-- Pacebeat backup, format ${FORMAT}`;
export const END_OF_DATA = '\\.';

export interface BackupSequence {
  /** The table and column the sequence belongs to (`pg_get_serial_sequence`). */
  table: string;
  column: string;
  value: number;
  isCalled: boolean;
}

export interface BackupMeta {
  format: number;
  createdAt: string;
  appVersion: string;
  serverVersion: string;
  /** `keyId()` of the token encryption key in use when the backup was made; null when there was none. */
  keyId: string | null;
  /** The Drizzle migrations the database had, in order: the schema level of the rows. */
  migrations: AppliedMigration[];
  sequences: BackupSequence[];
}

export interface BackupTrailer {
  /** Rows written per table: restore checks it restored as many (and that the file is complete). */
  rows: Record<string, number>;
}

/** appVersion: the release that made the backup (the tag to check out to restore it; docs/install.md). */
export const metaLine = (m: Omit<BackupMeta, 'format' | 'appVersion'>) =>
  `-- meta: ${JSON.stringify({ format: FORMAT, appVersion: releaseVersion(), ...m })}`;
export const endLine = (t: BackupTrailer) => `-- end: ${JSON.stringify(t)}`;

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const copyLine = (table: string, columns: string[]) =>
  `COPY "public".${ident(table)} (${columns.map(ident).join(', ')}) FROM stdin;`;

/** Identifiers as we write them: double-quoted, `""` for a quote inside. */
const QUOTED = '"((?:[^"]|"")+)"';
const COPY_RE = new RegExp(`^COPY "public"\\.${QUOTED} \\(((?:${QUOTED}(?:, )?)+)\\) FROM stdin;$`);

/** The table and columns of a COPY line, or null when the line is not one we write. */
export function parseCopyLine(line: string): { table: string; columns: string[] } | null {
  const m = COPY_RE.exec(line);
  if (!m) return null;
  const columns = [...m[2]!.matchAll(new RegExp(QUOTED, 'g'))].map((c) => c[1]!.replaceAll('""', '"'));
  return { table: m[1]!.replaceAll('""', '"'), columns };
}

export class BackupFormatError extends Error {
  constructor(message: string) {
    super(`Not a usable Pacebeat backup: ${message}`);
    this.name = 'BackupFormatError';
  }
}

export function parseMeta(line: string | undefined): BackupMeta {
  if (!line?.startsWith('-- meta: ')) throw new BackupFormatError('the second line is not its description');
  const meta = JSON.parse(line.slice('-- meta: '.length)) as BackupMeta;
  if (meta.format !== FORMAT)
    throw new BackupFormatError(`format ${meta.format} (this Pacebeat reads ${FORMAT})`);
  return meta;
}

export function parseEnd(line: string): BackupTrailer | null {
  return line.startsWith('-- end: ') ? (JSON.parse(line.slice('-- end: '.length)) as BackupTrailer) : null;
}
