// Spotify's 403 texts for a refused account, as observed in public reports over the years: they vary,
// so a client must not depend on their wording (tell a refused account by GET /me answering 403 too).
import type { Ctx } from '../context.ts';
import { hash32 } from '../world/rng.ts';

/** A user not on a development-mode app's user list (2021-2026 reports). */
export const NOT_REGISTERED_MESSAGES = [
  'User not registered in the Developer Dashboard',
  'Check settings on developer.spotify.com/dashboard, the user may not be registered.',
  'The user is not registered for this application. Please check your settings on https://developer.spotify.com/dashboard.',
  'User not approved for app',
] as const;

/** The app owner without Premium (2026 reports). */
export const PREMIUM_MESSAGES = [
  'Active premium subscription required for the owner of the app. When the subscription status changes, it can take a few hours before requests are allowed again.',
  'Active premium subscription required for the owner of the app.',
] as const;

/** The wording an app sees: `messageVariant` when set, else one per client id (from the seed). */
export function accountMessage(ctx: Ctx, list: readonly string[], clientId: string): string {
  const v = ctx.config.messageVariant ?? hash32(ctx.world.seed, 'messages', clientId);
  return list[v % list.length] as string;
}
