// Every /api call's method and path, by name: the first half of the endpoint table (`endpoints.ts` adds
// each call's schemas under the same name). It imports no zod, so the web app builds its URLs from it
// without shipping the schemas (apps/web/src/api/client.ts); the server registers its routes from the
// whole table (apps/server/src/http/endpoint.ts), and a test fails when a route is served that is not
// here, or a call here is not served (apps/server/src/http/api-docs.test.ts).

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where a call is served: its method and its full path, `:name` for each path parameter. */
export interface EndpointPath {
  method: HttpMethod;
  path: string;
}

/** Calls at the root of /api are named by their path; the others `<feature>.<action>`. */
export const ENDPOINT_PATHS = {
  // Accounts and sessions (spec §7, and the local-account extras).
  loginData: { method: 'POST', path: '/api/login_data' },
  signup: { method: 'POST', path: '/api/signup' },
  login: { method: 'POST', path: '/api/login' },
  whoami: { method: 'GET', path: '/api/whoami' },
  logout: { method: 'POST', path: '/api/logout' },
  /** The spec's GET form of logout, for this app's own pages only (fetch metadata is checked). */
  'logout.get': { method: 'GET', path: '/api/logout' },
  sendVerification: { method: 'POST', path: '/api/send_verification' },
  verifyEmail: { method: 'POST', path: '/api/verify_email' },
  passwordReset: { method: 'POST', path: '/api/password_reset' },
  'passwordReset.confirm': { method: 'POST', path: '/api/password_reset/confirm' },
  ping: { method: 'GET', path: '/api/ping' },
  // Connecting Spotify.
  'spotify.connectData': { method: 'GET', path: '/api/spotify/connect_data' },
  'spotify.connect': { method: 'PUT', path: '/api/spotify/connect' },
  'spotify.disconnect': { method: 'PUT', path: '/api/spotify/disconnect' },
  // The library: the Sources table, its switch, "refresh now" and the tempo chart.
  'library.sources': { method: 'GET', path: '/api/spotify/sources' },
  'library.sourceChange': { method: 'POST', path: '/api/spotify/source_change' },
  'library.refresh': { method: 'POST', path: '/api/spotify/refresh' },
  'library.tempoHistogram': { method: 'GET', path: '/api/spotify/tempo_histogram' },
  // The target playlists and the runner's edits of them.
  'targets.list': { method: 'GET', path: '/api/spotify/targets' },
  'targets.add': { method: 'POST', path: '/api/spotify/targets' },
  'targets.edit': { method: 'PATCH', path: '/api/spotify/targets/:id' },
  'targets.remove': { method: 'DELETE', path: '/api/spotify/targets/:id' },
  'targets.removeUnfitting': { method: 'POST', path: '/api/spotify/targets/:id/remove_unfitting' },
  // The runner's choices: a target's lists, tempo corrections, exclusions.
  'choices.targetTracks': { method: 'GET', path: '/api/spotify/targets/:targetId/tracks' },
  'choices.correctTempo': { method: 'PUT', path: '/api/spotify/tempo_corrections/:recordingKey' },
  'choices.undoCorrection': { method: 'DELETE', path: '/api/spotify/tempo_corrections/:recordingKey' },
  'choices.correctMeter': { method: 'PUT', path: '/api/spotify/meter_corrections/:recordingKey' },
  'choices.undoMeterCorrection': { method: 'DELETE', path: '/api/spotify/meter_corrections/:recordingKey' },
  'choices.exclusions': { method: 'GET', path: '/api/spotify/exclusions' },
  'choices.exclude': { method: 'PUT', path: '/api/spotify/exclusions/:kind/:key' },
  'choices.restore': { method: 'DELETE', path: '/api/spotify/exclusions/:kind/:key' },
  // Runs: workouts built into one playlist each from the runner's songs.
  'runs.list': { method: 'GET', path: '/api/spotify/runs' },
  'runs.create': { method: 'POST', path: '/api/spotify/runs' },
  'runs.get': { method: 'GET', path: '/api/spotify/runs/:id' },
  'runs.edit': { method: 'PUT', path: '/api/spotify/runs/:id' },
  'runs.remove': { method: 'DELETE', path: '/api/spotify/runs/:id' },
  'runs.build': { method: 'POST', path: '/api/spotify/runs/:id/build' },
  'runs.send': { method: 'POST', path: '/api/spotify/runs/:id/send' },
  // Public: which tempo sources the footer credits.
  'tempo.credits': { method: 'GET', path: '/api/tempo/credits' },
  // The admin's setup page: the Spotify app in force, and the checks against Spotify.
  'setup.spotifyApp': { method: 'GET', path: '/api/admin/spotify_app' },
  'setup.saveSpotifyApp': { method: 'PUT', path: '/api/admin/spotify_app' },
  'setup.checkRedirects': { method: 'POST', path: '/api/admin/spotify_app/check_redirects' },
  'setup.checkAccount': { method: 'POST', path: '/api/admin/spotify_app/check_account' },
  // The admin page: who may sign up, invitations, and the installation's counts.
  'admin.signup': { method: 'GET', path: '/api/admin/signup' },
  'admin.setSignupMode': { method: 'PUT', path: '/api/admin/signup' },
  'admin.invite': { method: 'POST', path: '/api/admin/invitations' },
  'admin.revokeInvitation': { method: 'DELETE', path: '/api/admin/invitations/:id' },
} as const satisfies Record<string, EndpointPath>;

export type EndpointName = keyof typeof ENDPOINT_PATHS;

/**
 * A call's path with its `:name` parameters filled in, each encoded as one path segment:
 * `endpointPath('targets.edit', { id: 'a/b' })` → `/api/spotify/targets/a%2Fb`.
 */
export function endpointPath(name: EndpointName, params: Record<string, string | number> = {}): string {
  return ENDPOINT_PATHS[name].path.replace(/:(\w+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`${name}: no value for the path parameter :${key}`);
    return encodeURIComponent(String(value));
  });
}
