// The HTTP app with the accounts and choices routes, for the choices route and load tests (as
// accounts-app.ts is for the accounts routes). Only tests import this file.
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createAccountsModule } from '../src/accounts/accounts.module.ts';
import { loadConfig } from '../src/app/config.ts';
import { buildApp } from '../src/app/http-app.ts';
import { createChoicesModule } from '../src/choices/choices.module.ts';
import type { choicesFixtures } from '../src/choices/choices.test-helper.ts';
import { testOrigins } from './accounts-app.ts';

type ChoicesDeps = Parameters<typeof createChoicesModule>[1];
/** The Drizzle handle repositories take (only repositories import the client itself). */
type Db = Parameters<typeof choicesFixtures>[0];

/**
 * The HTTP app with the accounts and choices routes on these fixtures' tempo cache and placed songs: the
 * library and the removals are the test's own.
 */
export async function choicesApp(
  db: Db,
  fx: ReturnType<typeof choicesFixtures>,
  o: {
    env?: Record<string, string>;
    listMatchCandidates: ChoicesDeps['listMatchCandidates'];
    removeFromTargets?: ChoicesDeps['removeFromTargets'];
  },
) {
  const log = pino({ level: 'silent' });
  const config = loadConfig(o.env ?? {});
  const accounts = createAccountsModule(db, { settings: { ...config, embedded: false }, log });
  const choices = createChoicesModule(db, {
    listMatchCandidates: o.listMatchCandidates,
    tempos: fx.tempo,
    placedSongs: fx.playlists.placedSongs,
    removeFromTargets: o.removeFromTargets ?? (async () => 0),
    triggerSync: async () => undefined,
  });
  return buildApp(
    {
      webDistDir: path.join(os.tmpdir(), 'pacebeat-no-web-build'),
      origins: testOrigins(config),
      checkReady: async () => undefined,
      accounts: { accounts: accounts.accounts, sessions: accounts.sessions },
      choices: { choices: choices.service, trackLists: choices.trackLists },
    },
    { loggerInstance: log },
  );
}
