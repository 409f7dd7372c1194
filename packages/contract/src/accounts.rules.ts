// The accounts' rules without zod: the sign-in texts, error names, field limits and checks the web app's
// forms apply before sending, and the server's schemas (accounts.ts) apply again.

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
