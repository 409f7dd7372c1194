import { z } from 'zod';
import { SPOTIFY_CLIENT_ID_PATTERN, SETUP_TEXTS } from './setup.rules.ts';

// The admin's setup page: connecting a real Spotify app from the browser, under
// /api/admin/spotify_app. Admins only, never in sudo mode.

/** Where the client id in force comes from. */
export const SpotifyAppSource = z.enum(['demo', 'database', 'env']);
export type SpotifyAppSource = z.infer<typeof SpotifyAppSource>;

/** A redirect URI to paste into the Spotify dashboard, or an address Spotify would refuse (and why). */
export const SetupRedirect = z.object({
  /** `<origin>/connect/spotify`. */
  uri: z.string(),
  /** Spotify accepts it (HTTPS, or http://127.0.0.1 / http://[::1]); false: `problem` says why not. */
  accepted: z.boolean(),
  problem: z.string().nullable(),
});
export type SetupRedirect = z.infer<typeof SetupRedirect>;

/** GET and PUT /api/admin/spotify_app: what the setup page shows. */
export const SpotifyAppSetupReply = z.object({
  data: z.object({
    /** `demo`: the simulated Spotify; `database`: the client id set on this page; `env`: SPOTIFY_CLIENT_ID. */
    source: SpotifyAppSource,
    /** The client id in force (null in demo mode). */
    client_id: z.string().nullable(),
    /** The client id kept in the database (set on this page), even while SPOTIFY_CLIENT_ID wins. */
    saved_client_id: z.string().nullable(),
    /** Spotify's accounts service the check and the connect page use (SPOTIFY_ACCOUNTS_URL); in demo mode a path on this origin. */
    accounts_url: z.string(),
    /** The redirect URIs for every address Pacebeat answers at (PUBLIC_URL, ALLOWED_ORIGINS, HOST:PORT). */
    redirect_uris: z.array(SetupRedirect),
    /** Runners whose Spotify is connected now (in demo mode: to the simulated one). */
    connected_runners: z.number().int(),
    /** Set by PUT: runners whose Spotify connection ended (demo mode left, or another client id). */
    demo_connections_ended: z.number().int().optional(),
  }),
});
export type SpotifyAppSetupReply = z.infer<typeof SpotifyAppSetupReply>;

/** PUT /api/admin/spotify_app: the client id, and in demo mode the confirmation that demo mode ends. */
export const SpotifyAppBody = z.object({
  client_id: z
    .string()
    .trim()
    .max(200, SETUP_TEXTS.badClientId)
    .regex(SPOTIFY_CLIENT_ID_PATTERN, SETUP_TEXTS.badClientId),
  /**
   * Required (true) to leave demo mode, or to change the client id while runners are connected: every
   * runner's Spotify connection ends (a demo one is simulated; a real one belongs to one Spotify app).
   */
  confirm: z.boolean().optional(),
});
export type SpotifyAppBody = z.infer<typeof SpotifyAppBody>;

/** What Spotify answered one check, in plain words. */
export const SetupCheckOutcome = z.object({
  ok: z.boolean(),
  /**
   * `redirect_refused`, `client_unknown`, `not_registered` (the account is not under User Management),
   * `premium` (the app owner lacks Premium), `denied` (consent refused), `code_refused`, `unreachable`,
   * `refused` (another refusal), or null when all is well.
   */
  problem: z
    .enum([
      'redirect_refused',
      'client_unknown',
      'not_registered',
      'premium',
      'denied',
      'code_refused',
      'unreachable',
      'refused',
    ])
    .nullable(),
  /** A sentence for the admin: what is wrong and what to do. */
  explanation: z.string(),
  /** Spotify's own words, when it said something. */
  spotify_says: z.string().nullable(),
});
export type SetupCheckOutcome = z.infer<typeof SetupCheckOutcome>;

/** POST /api/admin/spotify_app/check_redirects: no fields (the server knows the redirect URIs). */
export const SetupRedirectChecksBody = z.object({});
export type SetupRedirectChecksBody = z.infer<typeof SetupRedirectChecksBody>;

/** POST /api/admin/spotify_app/check_redirects: asks Spotify's authorize page about each redirect URI. */
export const SetupRedirectChecksReply = z.object({
  data: z.object({
    checks: z.array(SetupCheckOutcome.extend({ uri: z.string() })),
  }),
});
export type SetupRedirectChecksReply = z.infer<typeof SetupRedirectChecksReply>;

/** POST /api/admin/spotify_app/check_account: the code Spotify sent the check window back with. */
export const SetupAccountCheckBody = z.object({
  code: z.string().min(1).max(2048),
  code_verifier: z.string().regex(/^[A-Za-z0-9]{43,128}$/, 'must be the PKCE verifier of the check'),
  redirect_uri: z.string().url().max(300),
});
export type SetupAccountCheckBody = z.infer<typeof SetupAccountCheckBody>;

export const SetupAccountCheckReply = z.object({
  data: SetupCheckOutcome.extend({
    /** The Spotify account that was checked (its display name or id), when Spotify said who it is. */
    account: z.string().nullable(),
  }),
});
export type SetupAccountCheckReply = z.infer<typeof SetupAccountCheckReply>;
