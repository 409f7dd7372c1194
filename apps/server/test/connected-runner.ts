import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';

/** A user with a Spotify account row (connected, tokens sealed nowhere): a runner the call budget counts. */
export async function connectedRunner(db: Db, id: string = randomUUID()): Promise<string> {
  await db.execute(sql`insert into users (id, email) values (${id}, ${`runner-${id}@example.org`})
                       on conflict do nothing`);
  await db.execute(sql`
    insert into spotify_accounts (user_id, account_id, spotify_user_id, scopes, refresh_token_enc)
    values (${id}, ${`acc-${randomUUID()}`}, ${`sp-${id}`}, '', 'sealed')`);
  return id;
}
