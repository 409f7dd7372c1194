// The one Drizzle schema of Pacebeat. Migrations in apps/server/drizzle are generated from it
// (`npm run db:generate -w @pacebeat/server`) and applied at start and by `migrate`.
// It is a list of the feature schemas; each feature keeps its tables in its own file.

export * from './accounts.schema.ts';
// spotify: the linked accounts, call budget, cooldowns, capabilities and ledger (owned by src/spotify/)
export * from './spotify.schema.ts';

// tempo: the shared tempo cache and the tempo services' pacing (owned by src/tempo/)
export * from './tempo.schema.ts';

// library: shared tracks, artists' catalogs and releases; per-user sources, cursors and membership (owned by src/library/)
export * from './library.schema.ts';
// playlists: target playlists, the recordings placed in them, and the writer lease (owned by src/playlists/)
export * from './playlists.schema.ts';
// choices: a runner's tempo corrections and exclusions (owned by src/choices/)
export * from './choices.schema.ts';
// runs: a runner's saved workouts and their builds (owned by src/runs/)
export * from './runs.schema.ts';
// installation: facts every process of one installation must agree on (the token key's id; src/spotify/token-key.ts)
export * from './installation.schema.ts';
