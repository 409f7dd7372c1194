// Facts of the whole installation that every process must agree on, whatever machine or DATA_DIR it runs
// with. Today one: the id of the key that seals the Spotify tokens (src/spotify/token-key.ts).
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const installationFacts = pgTable('installation_facts', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
