// What a backup covers, read from PostgreSQL's catalog rather than listed by hand, so tables that new
// features add are backed up and restored with no change here: every table of the `public` schema (the
// Drizzle schema), parents before the tables whose foreign keys reference them. pg-boss's schema and
// Drizzle's own bookkeeping are not data (see docs/operating.md, "Backups").
import type pg from 'pg';

export interface TableInfo {
  name: string;
  /** Columns in order, without generated ones (COPY cannot write those). */
  columns: string[];
  /** Columns filled from a sequence (serial, identity), and that sequence's name. */
  sequences: { column: string; sequence: string }[];
}

/** Kahn's order over the foreign keys; ties by name, so the order is stable. Self references are ignored. */
export function dependencyOrder(names: string[], edges: { child: string; parent: string }[]): string[] {
  const parents = new Map(names.map((n) => [n, new Set<string>()]));
  for (const e of edges) if (e.child !== e.parent) parents.get(e.child)?.add(e.parent);
  const order: string[] = [];
  const left = new Set(names);
  while (left.size > 0) {
    const ready = [...left].filter((n) => [...parents.get(n)!].every((p) => !left.has(p))).sort();
    if (ready.length === 0)
      throw new Error(`foreign keys form a cycle among: ${[...left].sort().join(', ')}`);
    for (const n of ready) {
      order.push(n);
      left.delete(n);
    }
  }
  return order;
}

export async function appTables(client: pg.Client | pg.PoolClient): Promise<TableInfo[]> {
  const { rows: cols } = await client.query<{ table: string; column: string; sequence: string | null }>(`
    select c.relname as table, a.attname as column,
           pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) as sequence
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
    order by c.relname, a.attnum`);
  const { rows: edges } = await client.query<{ child: string; parent: string }>(`
    select child.relname as child, parent.relname as parent
    from pg_constraint f
    join pg_class child on child.oid = f.conrelid
    join pg_class parent on parent.oid = f.confrelid
    join pg_namespace n on n.oid = child.relnamespace
    where f.contype = 'f' and n.nspname = 'public'`);
  const tables = new Map<string, TableInfo>();
  for (const r of cols) {
    const t = tables.get(r.table) ?? { name: r.table, columns: [], sequences: [] };
    t.columns.push(r.column);
    if (r.sequence) t.sequences.push({ column: r.column, sequence: r.sequence });
    tables.set(r.table, t);
  }
  return dependencyOrder([...tables.keys()], edges).map((n) => tables.get(n)!);
}
