// Who may sign up, and who becomes the first admin. Decided from the settings and the database,
// never from whether the database is the embedded one:
//
// - Mode: SIGNUP_MODE when set (it wins over the admin page, as SPOTIFY_CLIENT_ID does over the setup
//   page); else what an admin chose on the admin page; else the default: `open` in demo mode at a loopback
//   address (nothing real to protect, and only this machine reaches it), `invite` otherwise.
// - The first admin: while an installation has no admin, the next account becomes it when Pacebeat answers
//   only at loopback addresses (the person at this machine is its owner); on any other address only an
//   account made with the one-time setup link printed in the log does, so a stranger who finds a new
//   server first cannot take it. Either way the check and the insert are one transaction under a lock
//   (signup.repository.ts), so two sign-ups at once never make two first admins.
import type { SignupModeName } from '@pacebeat/contract/rules';
import type { AppOrigins } from '../http/origins.ts';
import type { SignupRepository } from './signup.repository.ts';

/** An origin only this machine reaches: 127.0.0.0/8, [::1], localhost and its subdomains. */
export function isLoopbackOrigin(origin: string): boolean {
  const host = new URL(origin).hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** Pacebeat answers at loopback addresses only (PUBLIC_URL, ALLOWED_ORIGINS and HOST say so). */
export const answersOnlyAtLoopback = (origins: Pick<AppOrigins, 'allowedOrigins'>) =>
  origins.allowedOrigins.every(isLoopbackOrigin);

export interface SignupModeNow {
  mode: SignupModeName;
  source: 'env' | 'database' | 'default';
  defaultMode: SignupModeName;
}

export interface SignupPolicyDeps {
  repo: Pick<SignupRepository, 'savedMode'>;
  /** SIGNUP_MODE. */
  envMode?: SignupModeName;
  /** Pacebeat answers only at loopback addresses. */
  loopback: boolean;
  /** Demo mode is in force (the simulated Spotify); read at each sign-up, since the setup page may leave it. */
  demo: () => Promise<boolean>;
}

export function createSignupPolicy(d: SignupPolicyDeps) {
  async function defaultMode(): Promise<SignupModeName> {
    if (!d.loopback) return 'invite';
    // Whatever cannot be read counts as a real Spotify: the stricter default.
    const demo = await d.demo().catch(() => false);
    return demo ? 'open' : 'invite';
  }
  return {
    loopback: d.loopback,
    /** The first account of an installation without an admin becomes it without a setup link. */
    firstAccountIsAdmin: d.loopback,
    async current(): Promise<SignupModeNow> {
      const fallback = await defaultMode();
      if (d.envMode) return { mode: d.envMode, source: 'env', defaultMode: fallback };
      const saved = await d.repo.savedMode();
      if (saved) return { mode: saved, source: 'database', defaultMode: fallback };
      return { mode: fallback, source: 'default', defaultMode: fallback };
    },
  };
}

export type SignupPolicy = ReturnType<typeof createSignupPolicy>;
