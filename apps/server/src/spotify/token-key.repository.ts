// The only code that issues SQL on installation_facts: the first process claims a fact, the others read it.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { installationFacts } from '../db/installation.schema.ts';

export function createTokenKeyRepository(db: Db) {
  return {
    /** Records `value` under `name` unless a value is there already; answers the value in force. */
    async claim(name: string, value: string): Promise<string> {
      await db.insert(installationFacts).values({ name, value }).onConflictDoNothing();
      const rows = await db
        .select({ value: installationFacts.value })
        .from(installationFacts)
        .where(eq(installationFacts.name, name));
      return rows[0]?.value ?? value;
    },

    /** Forgets a fact (a restore with --ignore-key: the tokens sealed with the old key are lost anyway). */
    async forget(name: string): Promise<void> {
      await db.execute(sql`delete from ${installationFacts} where ${installationFacts.name} = ${name}`);
    },
  };
}
export type TokenKeyRepository = ReturnType<typeof createTokenKeyRepository>;
