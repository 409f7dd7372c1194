import { z } from 'zod';
import {
  AUTH_TEXTS,
  EMAIL_PATTERN,
  FIELD_LIMITS,
  FIELD_TEXTS,
  emailLengthProblem,
} from './accounts.rules.ts';
import { INVITATION_TOKEN_PATTERN, SIGNUP_MODES, SIGNUP_TEXTS } from './admin.rules.ts';

export const Email = z
  .string()
  .trim()
  .min(1, AUTH_TEXTS.emailMissing)
  .max(FIELD_LIMITS.email, { error: FIELD_TEXTS.emailTooLong, abort: true })
  .refine((e) => emailLengthProblem(e) === null, { error: FIELD_TEXTS.emailTooLong, abort: true })
  .regex(EMAIL_PATTERN, AUTH_TEXTS.emailInvalid)
  .transform((e) => e.toLowerCase());
const Password = z
  .string()
  .min(1, AUTH_TEXTS.passwordMissing)
  .max(FIELD_LIMITS.password, FIELD_TEXTS.passwordTooLong);
/** An invitation link's secret (`/login?invite=…`): needed to sign up when sign-up is by invitation. */
export const InvitationToken = z.string().trim().regex(INVITATION_TOKEN_PATTERN, SIGNUP_TEXTS.badToken);
/** The browser's IANA time zone, used to format times for the user. */
const TimeZone = z.string().trim().min(1).max(64).optional();

export const AuthProviderKind = z.enum(['firebase', 'local']);
export type AuthProviderKind = z.infer<typeof AuthProviderKind>;

/** POST /api/login_data — which providers the page should offer, and their public configuration. */
export const LoginDataBody = z.object({
  kinds: z.array(AuthProviderKind).min(1).max(4),
  /** The invitation the page was opened with: the reply says whether it still works. */
  invitation: InvitationToken.optional(),
});
export type LoginDataBody = z.infer<typeof LoginDataBody>;

export const FirebaseWebConfig = z.record(z.string(), z.string());
export type FirebaseWebConfig = z.infer<typeof FirebaseWebConfig>;

/** Who may sign up now, for the sign-in page. */
export const SignupState = z.object({
  /** `open`, `invite` (an invitation link is needed) or `closed`. */
  mode: z.enum(SIGNUP_MODES),
  /**
   * A sign-up without an invitation is taken now: open mode, or the first account of an installation
   * without an admin at a loopback address (it becomes the admin).
   */
  allowed: z.boolean(),
  /** The invitation asked about: whether it works, and why not. */
  invitation: z
    .object({
      valid: z.boolean(),
      /** Why it does not work, in a sentence. */
      problem: z.string().nullable(),
      /** Only this address may sign up with it. */
      email: z.string().nullable(),
      /** The setup link: the account made with it becomes the admin. */
      makes_admin: z.boolean(),
    })
    .nullable(),
});
export type SignupState = z.infer<typeof SignupState>;

export const LoginDataReply = z.object({
  data: z.object({
    /** Who may sign up (local accounts and Firebase alike). */
    signup: SignupState.optional(),
    firebase: z
      .object({
        data: z.object({
          web_config: FirebaseWebConfig,
          /** Set only when the server talks to the Firebase Auth emulator (tests). */
          auth_emulator_url: z.string().optional(),
        }),
      })
      .optional(),
    local: z
      .object({
        data: z.object({
          /** True when mail goes out and a new account must verify its email before signing in. */
          email_verification: z.boolean(),
        }),
      })
      .optional(),
  }),
});
export type LoginDataReply = z.infer<typeof LoginDataReply>;

/** POST /api/login — firebase: an ID token from the widget; local: email and password. */
export const LoginBody = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('firebase'),
    token: z.string().min(1).max(8192),
    time_zone: TimeZone,
    /** A new identity's invitation, when sign-up is by invitation. */
    invitation: InvitationToken.optional(),
  }),
  z.object({ provider: z.literal('local'), email: Email, password: Password, time_zone: TimeZone }),
]);
export type LoginBody = z.infer<typeof LoginBody>;

export const LoginReply = z.object({ data: z.object({ user_id: z.string() }) });
export type LoginReply = z.infer<typeof LoginReply>;

/** POST /api/signup — a new local account. */
export const SignupBody = z.object({
  email: Email,
  name: z.string().trim().min(1, AUTH_TEXTS.nameMissing).max(FIELD_LIMITS.name, FIELD_TEXTS.nameTooLong),
  password: Password,
  time_zone: TimeZone,
  /** The invitation link's secret, when sign-up is by invitation (or the setup link of a new installation). */
  invitation: InvitationToken.optional(),
});
export type SignupBody = z.infer<typeof SignupBody>;

export const SignupReply = z.object({
  data: z.object({
    /** True: signed in now. False: a verification mail went out; sign in after following its link. */
    signed_in: z.boolean(),
  }),
});
export type SignupReply = z.infer<typeof SignupReply>;

/** POST /api/send_verification — local accounts: mail a new verification link (needs the password). */
export const SendVerificationBody = z.object({ email: Email, password: Password });
export type SendVerificationBody = z.infer<typeof SendVerificationBody>;

/** POST /api/password_reset — mail a reset link to a local account. */
export const PasswordResetBody = z.object({ email: Email });
export type PasswordResetBody = z.infer<typeof PasswordResetBody>;

/** POST /api/password_reset/confirm — set a new password with the mailed code. */
export const PasswordResetConfirmBody = z.object({
  code: z.string().min(1).max(200),
  password: Password,
});
export type PasswordResetConfirmBody = z.infer<typeof PasswordResetConfirmBody>;

/** POST /api/verify_email — confirm an address with the mailed code. */
export const VerifyEmailBody = z.object({ code: z.string().min(1).max(200) });
export type VerifyEmailBody = z.infer<typeof VerifyEmailBody>;

/** Replies that carry nothing but success. */
export const OkReply = z.object({ data: z.object({ ok: z.literal(true) }) });
export type OkReply = z.infer<typeof OkReply>;
