// The contract without zod: every call's method and path, and the limits, texts and checks the web app
// applies in the browser. The web app imports its values from here (`@pacebeat/contract/rules`) and only
// types from the whole contract, so no zod schema reaches a visitor's first load (rules.test.ts).
export * from './common.rules.ts';
export * from './accounts.rules.ts';
export * from './spotify.rules.ts';
export * from './playlists.rules.ts';
export * from './choices.rules.ts';
export * from './runs.rules.ts';
export * from './tempo.rules.ts';
export * from './setup.rules.ts';
export * from './admin.rules.ts';
export * from './endpoint-paths.ts';
