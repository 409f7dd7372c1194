import { z } from 'zod';
import { SudoQuery } from './common.ts';

/** GET /api/spotify/connect_data's query. */
export const SpotifyConnectDataQuery = SudoQuery.extend({
  /**
   * The origin the connect page is open at (`location.origin`): the redirect URI is the connect page
   * there. A dev server's proxy may rewrite the `Host` header, so the page names its own address; without
   * it, the origin the request was addressed to. Must be one of the app's origins.
   */
  page_origin: z.string().max(300).optional(),
});
export type SpotifyConnectDataQuery = z.infer<typeof SpotifyConnectDataQuery>;

/** GET /api/spotify/connect_data — what the connect page needs to start the PKCE flow. */
export const SpotifyConnectDataReply = z.object({
  data: z.object({
    client_id: z.string(),
    /** Joined by spaces for the authorize URL (spec §3). */
    scopes: z.array(z.string()),
    /** Spotify's authorize page (the simulated one in demo mode). */
    authorize_url: z.string(),
    /** Spotify's token endpoint, called by the browser with the code and the verifier. */
    token_url: z.string(),
    /** True when Pacebeat runs against its built-in simulated Spotify (no client id configured). */
    demo: z.boolean(),
    /**
     * The connect page's own URL at the address the page is open at, where Spotify sends the runner back.
     * Never a `localhost` one (Spotify refuses them): connect_data answers 400 `SpotifyRedirectUriRefused` then.
     */
    redirect_uri: z.string(),
  }),
});
export type SpotifyConnectDataReply = z.infer<typeof SpotifyConnectDataReply>;

/** Spotify's token reply, as the browser received it from the token endpoint. */
/** Tokens travel in HTTP headers and forms: visible ASCII only (no spaces, CR, LF or NUL). */
const Token = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[\x21-\x7E]+$/, 'must be visible ASCII characters only');

export const SpotifyTokenInfo = z.object({
  access_token: Token,
  token_type: z.string().refine((t) => t.toLowerCase() === 'bearer', 'must be Bearer'),
  /** Granted scopes, space-separated. */
  scope: z.string().max(4096),
  expires_in: z.number().int().positive().max(86_400),
  refresh_token: Token,
});
export type SpotifyTokenInfo = z.infer<typeof SpotifyTokenInfo>;

/** PUT /api/spotify/connect — the token reply, sent as received (spec §7: payload `token_info`). */
export const SpotifyConnectBody = z.object({ token_info: SpotifyTokenInfo });
export type SpotifyConnectBody = z.infer<typeof SpotifyConnectBody>;

export const SpotifyConnectReply = z.object({
  data: z.object({
    connected: z.literal(true),
    /** The Spotify display name (or id) of the linked account. */
    display_name: z.string(),
  }),
});
export type SpotifyConnectReply = z.infer<typeof SpotifyConnectReply>;

/** PUT /api/spotify/disconnect */
export const SpotifyDisconnectReply = z.object({ data: z.object({ disconnected: z.literal(true) }) });
export type SpotifyDisconnectReply = z.infer<typeof SpotifyDisconnectReply>;
