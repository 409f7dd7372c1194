// Sign-in, sessions, sign-up and mail settings, spread into the one config schema (app/config.ts).
import { z } from 'zod';
import { commaList, optionalString } from '../config.fields.ts';

export const AccountsSettingsSchema = {
  /**
   * Comma-separated emails of admins (they may use `?sudo=`), once the address is verified (a verified
   * local account, or a Firebase identity with a verified email); without SMTP_URL nothing is verified, so
   * grant admin with `npm run admin -- grant EMAIL` instead.
   */
  ADMIN_EMAILS: commaList(z.email()),
  /**
   * Who may sign up: `open`, `invite` (with a link an admin made) or `closed`. Unset: what an admin chose
   * on the admin page, else `open` in demo mode at a loopback address and `invite` otherwise. Set, it wins
   * over the page.
   */
  SIGNUP_MODE: optionalString.pipe(z.enum(['open', 'invite', 'closed']).optional()),
  /** A session ends after this many hours without a request. */
  SESSION_IDLE_HOURS: z.coerce.number().positive().max(8760).default(336),
  /** A session ends this many hours after sign-in, however active. */
  SESSION_ABSOLUTE_HOURS: z.coerce.number().positive().max(8760).default(720),
  /**
   * Failed sign-ins of one account from one client address, of one account from all addresses together,
   * and from one client address, allowed within LOGIN_WINDOW_MINUTES.
   */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  LOGIN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES: z.coerce.number().int().min(1).default(100),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  /** New accounts, and verification/reset mails, allowed per client address within LOGIN_WINDOW_MINUTES. */
  SIGNUP_MAX_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  /**
   * Verification and reset mails to one recipient within LOGIN_WINDOW_MINUTES, whichever addresses ask
   * (counted for unknown addresses too, so the answer never tells whether an account exists).
   */
  MAIL_MAX_PER_RECIPIENT: z.coerce.number().int().min(1).default(5),
  /** Spotify connect attempts (each a `GET /me` from the shared budget) per client address within LOGIN_WINDOW_MINUTES. */
  CONNECT_MAX_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /** SMTP server for verification and reset mails, e.g. smtp://user:pass@mail.example.org:587 (or smtps://). Unset: links go to the log and email verification is not required. */
  SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  /** Sender of the mails. */
  SMTP_FROM: z.string().trim().min(1).default('Pacebeat <no-reply@localhost>'),
  /** Firebase project id; with FIREBASE_WEB_CONFIG it switches sign-in to Firebase. */
  FIREBASE_PROJECT_ID: optionalString,
  /** The Firebase web app config as JSON (`{"apiKey": "...", "authDomain": "...", ...}`); public, shown to browsers. */
  FIREBASE_WEB_CONFIG: optionalString.pipe(
    z
      .string()
      .transform((v, ctx) => {
        try {
          return JSON.parse(v) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be JSON' });
          return z.NEVER;
        }
      })
      .pipe(z.record(z.string(), z.string()))
      .optional(),
  ),
  /** host:port of the Firebase Auth emulator (tests only); the Admin SDK reads it too. */
  FIREBASE_AUTH_EMULATOR_HOST: optionalString,
};
export const AccountsConfigSchema = z.object(AccountsSettingsSchema);
export type AccountsConfig = z.infer<typeof AccountsConfigSchema>;
