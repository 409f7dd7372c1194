import pg from 'pg';

/** The statements every pg client of this test process sends PostgreSQL while `f` runs, as it receives them. */
export async function statementsOf(f: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const config = args[0];
    seen.push(typeof config === 'string' ? config : (config as { text: string }).text);
    return query.apply(this, args);
  };
  try {
    await f();
  } finally {
    proto.query = query;
  }
  return seen;
}
