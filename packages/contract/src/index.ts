// The zod schemas of every /api request and reply, and the endpoint table that names each call with them,
// shared by the server and the web app.
export * from './common.ts';
export * from './session.ts';
export * from './accounts.ts';
export * from './spotify.ts';
export * from './tempo.ts';
export * from './library.ts';
export * from './playlists.ts';
export * from './choices.ts';
export * from './runs.ts';
export * from './setup.ts';
export * from './admin.ts';
export * from './rules.ts';
export * from './endpoints.ts';
