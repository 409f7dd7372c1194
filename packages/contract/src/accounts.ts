import { z } from 'zod';

/**
 * Texts the spec's sign-in widget shows (spec §5, §8). The local sign-in form shows the same texts
 * in the same situations, and the server answers them as `error.message`.
 */
export const AUTH_TEXTS = {
  emailMissing: 'Enter your email address to continue',
  emailInvalid: "That email address isn't correct",
  passwordMissing: 'Enter your password',
  nameMissing: 'Enter your account name',
  emailInUse: 'The email address is already used by another account',
  tooManyLogins: 'You have entered an incorrect password too many times. Please try again in a few minutes.',
  tooManyMails: 'Too many emails were asked for lately. Please try again in a few minutes.',
  tooManySignups: 'Too many account requests are coming from your IP address. Try again in a few minutes.',
  userNotFound: "That email address doesn't match an existing account",
  weakPassword: 'Strong passwords have at least 6 characters and a mix of letters and numbers',
  wrongPassword: "The email and password you entered don't match",
  expiredActionCode: 'This code has expired.',
  invalidActionCode:
    'The action code is invalid. This can happen if the code is malformed, expired, or has already been used.',
} as const;

/** Stable `error_name`s of the accounts calls. */
export const AUTH_ERRORS = {
  emailNotVerified: 'ExRestApiAuthEmailNotVerified',
  emailInUse: 'EmailAlreadyInUse',
  userNotFound: 'UserNotFound',
  wrongPassword: 'WrongPassword',
  weakPassword: 'WeakPassword',
  tooManyAttempts: 'TooManyAttempts',
  invalidToken: 'InvalidToken',
  invalidActionCode: 'InvalidActionCode',
  expiredActionCode: 'ExpiredActionCode',
} as const;

/** The same address pattern the widget applies (a standard pattern, top-level domain of 2 to 63 characters). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@.]{2,63}$/;

/**
 * The length limits of every field a person types (the browser applies them too, so a form never
 * sends what the server would refuse): the usual email limits (RFC 5321: 64 characters before the @,
 * 254 in all), and room for any real name or passphrase.
 */
export const FIELD_LIMITS = {
  emailLocalPart: 64,
  email: 254,
  name: 200,
  password: 256,
} as const;
export const PASSWORD_MAX_LENGTH = FIELD_LIMITS.password;

/** Plain messages for the limits above (the server answers them as `error.message` too). */
export const FIELD_TEXTS = {
  emailTooLong: `That email address is too long: at most ${FIELD_LIMITS.emailLocalPart} characters before the @ and ${FIELD_LIMITS.email} in all`,
  nameTooLong: `Your name can have at most ${FIELD_LIMITS.name} characters`,
  passwordTooLong: `Your password can have at most ${FIELD_LIMITS.password} characters`,
} as const;

/** The length rules of an email address (the pattern aside): a message when one is broken, else null. */
export function emailLengthProblem(email: string): string | null {
  const at = email.lastIndexOf('@');
  const local = at < 0 ? email : email.slice(0, at);
  return email.length > FIELD_LIMITS.email || local.length > FIELD_LIMITS.emailLocalPart
    ? FIELD_TEXTS.emailTooLong
    : null;
}

/** The widget's strength rule: at least 6 characters with letters and numbers. */
export const isStrongPassword = (p: string) => p.length >= 6 && /\p{L}/u.test(p) && /\p{N}/u.test(p);

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
/** The browser's IANA time zone, used to format times for the user. */
const TimeZone = z.string().trim().min(1).max(64).optional();

export const AuthProviderKind = z.enum(['firebase', 'local']);
export type AuthProviderKind = z.infer<typeof AuthProviderKind>;

/** POST /api/login_data — which providers the page should offer, and their public configuration. */
export const LoginDataBody = z.object({ kinds: z.array(AuthProviderKind).min(1).max(4) });
export type LoginDataBody = z.infer<typeof LoginDataBody>;

export const FirebaseWebConfig = z.record(z.string(), z.string());
export type FirebaseWebConfig = z.infer<typeof FirebaseWebConfig>;

export const LoginDataReply = z.object({
  data: z.object({
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
  z.object({ provider: z.literal('firebase'), token: z.string().min(1).max(8192), time_zone: TimeZone }),
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
