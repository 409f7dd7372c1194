import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import {
  AUTH_ERRORS,
  AUTH_TEXTS,
  isStrongPassword,
  type LoginBody,
  type SignupBody,
} from '@pacebeat/contract';
import { AppError, badRequest, conflict, unauthorized } from '../errors.ts';
import type { EmailCodePurpose, EmailCodeRepository } from './email-code.repository.ts';
import type { FirebaseVerifier } from './firebase.ts';
import type { Mailer } from './mailer.ts';
import { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from './passwords.ts';
import type { RateLimitService } from './rate-limit.service.ts';
import type { SessionRepository } from './session.repository.ts';
import type { SessionService } from './session.service.ts';
import type { User, UserRepository } from './user.repository.ts';

export interface AccountsDeps {
  users: UserRepository;
  codes: Pick<EmailCodeRepository, 'create' | 'find' | 'markUsed'>;
  sessionRows: Pick<SessionRepository, 'deleteForUser'>;
  sessions: SessionService;
  limits: RateLimitService;
  mailer: Mailer;
  /** Set when sign-in goes through Firebase; local sign-in is then off. */
  firebase?: FirebaseVerifier;
  /** The public Firebase web config and, in tests, the emulator's URL. */
  firebaseWebConfig?: Record<string, string>;
  firebaseEmulatorUrl?: string;
  adminEmails: readonly string[];
  /** Embedded mode: the first local account is an admin. */
  firstLocalIsAdmin: boolean;
  log: Logger;
  now?: () => Date;
}

const CODE_TTL_HOURS: Record<EmailCodePurpose, number> = { verify_email: 24, reset_password: 1 };
const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/** Who a request acts as; `admin` is set when an admin acts for another user with `?sudo=`. */
export interface ActingUser {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
}

/** Sign-up, sign-in (local or Firebase), email codes, admins and sudo. */
export const createAccountsService = (d: AccountsDeps) => {
  const now = d.now ?? (() => new Date());
  const local = !d.firebase;
  const isAdmin = (u: Pick<User, 'email' | 'isAdmin'>) => u.isAdmin || d.adminEmails.includes(u.email);
  const acting = (u: User): ActingUser => ({ id: u.id, email: u.email, name: u.name, isAdmin: isAdmin(u) });

  const requireLocal = () => {
    if (!local) throw new AppError('ProviderDisabled', 400, 'Local accounts are not enabled on this server.');
  };

  async function mailCode(user: User, purpose: EmailCodePurpose, origin: string): Promise<void> {
    const code = randomBytes(24).toString('base64url');
    await d.codes.create({
      codeHash: hashCode(code),
      userId: user.id,
      purpose,
      expiresAt: new Date(now().getTime() + CODE_TTL_HOURS[purpose] * 3_600_000),
    });
    const mode = purpose === 'verify_email' ? 'verifyEmail' : 'resetPassword';
    const link = `${origin}/login?mode=${mode}&code=${encodeURIComponent(code)}`;
    const text =
      purpose === 'verify_email'
        ? `Hello ${user.name},\n\nFollow this link to verify your email address for Pacebeat:\n\n${link}\n\nIf you did not sign up, ignore this mail.\n`
        : `Hello ${user.name},\n\nFollow this link to choose a new Pacebeat password (valid for ${CODE_TTL_HOURS[purpose]} hour):\n\n${link}\n\nIf you did not ask for this, ignore this mail.\n`;
    await d.mailer.send({
      to: user.email,
      subject: purpose === 'verify_email' ? 'Verify your email for Pacebeat' : 'Reset your Pacebeat password',
      text,
      link,
    });
  }

  /** Sends a mailed code for a request that is only about the mail: a failure answers 502, not 500. */
  async function mailOrFail(user: User, purpose: EmailCodePurpose, origin: string): Promise<void> {
    try {
      await mailCode(user, purpose, origin);
    } catch (err) {
      d.log.error({ err, userId: user.id, purpose }, 'mail failed');
      throw new AppError('MailFailed', 502, 'Sending the email failed. Please try again later.');
    }
  }

  /** Checks a local account's password; throws the widget's errors (the attempt counts as a failure until it is right). */
  async function checkPassword(email: string, password: string, ip: string): Promise<User> {
    const attempt = await d.limits.beginLogin(email, ip);
    const user = await d.users.findByEmail(email);
    if (!user) {
      await verifyPassword(await DUMMY_HASH_PROMISE, password).catch(() => false);
      throw unauthorized(AUTH_TEXTS.userNotFound, AUTH_ERRORS.userNotFound);
    }
    const ok = user.passwordHash
      ? await verifyPassword(user.passwordHash, password).catch(() => false)
      : false;
    if (!ok) throw unauthorized(AUTH_TEXTS.wrongPassword, AUTH_ERRORS.wrongPassword);
    await d.limits.loginSucceeded(attempt);
    return user;
  }

  async function useCode(code: string, purpose: EmailCodePurpose) {
    const row = await d.codes.find(hashCode(code), purpose);
    if (!row || row.usedAt) throw badRequest(AUTH_TEXTS.invalidActionCode, AUTH_ERRORS.invalidActionCode);
    if (row.expiresAt <= now()) throw badRequest(AUTH_TEXTS.expiredActionCode, AUTH_ERRORS.expiredActionCode);
    if (!(await d.codes.markUsed(row.codeHash, now()))) {
      throw badRequest(AUTH_TEXTS.invalidActionCode, AUTH_ERRORS.invalidActionCode);
    }
    return row;
  }

  /** Work that runs after the answer went out (a reset mail); `settled` waits for it (shutdown, tests). */
  const pending = new Set<Promise<void>>();
  function afterReply(what: string, work: () => Promise<void>): void {
    const p: Promise<void> = work()
      .catch((err: unknown) => d.log.error({ err }, what))
      .finally(() => pending.delete(p));
    pending.add(p);
  }

  const emailNotVerified = () =>
    unauthorized('We need to verify your email address.', AUTH_ERRORS.emailNotVerified);

  return {
    provider: local ? ('local' as const) : ('firebase' as const),

    /** Public configuration of the enabled providers among `kinds` (POST /api/login_data). */
    loginData(kinds: readonly string[]) {
      const data: {
        firebase?: { data: { web_config: Record<string, string>; auth_emulator_url?: string } };
        local?: { data: { email_verification: boolean } };
      } = {};
      if (!local && kinds.includes('firebase') && d.firebaseWebConfig) {
        data.firebase = {
          data: {
            web_config: d.firebaseWebConfig,
            ...(d.firebaseEmulatorUrl ? { auth_emulator_url: d.firebaseEmulatorUrl } : {}),
          },
        };
      }
      if (local && kinds.includes('local')) data.local = { data: { email_verification: d.mailer.delivers } };
      return { data };
    },

    /** Creates a local account. Signed in at once unless mail goes out, in which case the email must be verified first. */
    async signUp(body: SignupBody, ip: string, origin: string): Promise<{ user: User; signedIn: boolean }> {
      requireLocal();
      if (!isStrongPassword(body.password))
        throw badRequest(AUTH_TEXTS.weakPassword, AUTH_ERRORS.weakPassword);
      await d.limits.takeSignup(ip);
      // Hash first, whether or not the address is taken: the 409 then costs the same time as a sign-up.
      const passwordHash = await hashPassword(body.password);
      if (await d.users.findByEmail(body.email))
        throw conflict(AUTH_TEXTS.emailInUse, AUTH_ERRORS.emailInUse);
      const user = await d.users.create(
        { email: body.email, name: body.name, passwordHash },
        { firstIsAdmin: d.firstLocalIsAdmin },
      );
      if (!user) throw conflict(AUTH_TEXTS.emailInUse, AUTH_ERRORS.emailInUse);
      d.log.info({ userId: user.id, isAdmin: user.isAdmin }, 'local account created');
      try {
        await mailCode(user, 'verify_email', origin);
      } catch (err) {
        // The account exists; signing in answers "not verified", and the page then asks for a new mail.
        d.log.error({ err, userId: user.id }, 'verification mail failed at sign-up');
      }
      return { user, signedIn: !d.mailer.delivers };
    },

    /** Checks credentials (local password or Firebase ID token) and answers the user to start a session for. */
    async logIn(body: LoginBody, ip: string): Promise<User> {
      if (body.provider === 'local') {
        requireLocal();
        const user = await checkPassword(body.email, body.password, ip);
        if (d.mailer.delivers && !user.emailVerifiedAt) throw emailNotVerified();
        return user;
      }
      if (!d.firebase)
        throw new AppError('ProviderDisabled', 400, 'Firebase sign-in is not enabled on this server.');
      const attempt = await d.limits.beginLogin(undefined, ip);
      let identity;
      try {
        identity = await d.firebase.verifyIdToken(body.token);
      } catch (err) {
        d.log.info({ err: (err as Error).message }, 'firebase token refused');
        throw unauthorized('The sign-in token is not valid.', AUTH_ERRORS.invalidToken);
      }
      await d.limits.loginSucceeded(attempt);
      if (!identity.email) throw unauthorized('The account has no email address.', AUTH_ERRORS.invalidToken);
      if (!identity.emailVerified) throw emailNotVerified();
      let user = await d.users.findByFirebaseUid(identity.uid);
      if (!user) {
        const byEmail = await d.users.findByEmail(identity.email);
        if (byEmail) {
          await d.users.update(byEmail.id, {
            firebaseUid: identity.uid,
            emailVerifiedAt: byEmail.emailVerifiedAt ?? now(),
          });
          user = { ...byEmail, firebaseUid: identity.uid };
        } else {
          user = await d.users.create(
            {
              email: identity.email,
              name: identity.name ?? '',
              firebaseUid: identity.uid,
              emailVerifiedAt: now(),
            },
            { firstIsAdmin: false },
          );
          if (!user) throw conflict(AUTH_TEXTS.emailInUse, AUTH_ERRORS.emailInUse);
          d.log.info({ userId: user.id }, 'firebase account created');
        }
      }
      return user;
    },

    /** Mails a new verification link to a local account whose password is given. */
    async sendVerification(email: string, password: string, ip: string, origin: string): Promise<void> {
      requireLocal();
      const user = await checkPassword(email, password, ip);
      if (user.emailVerifiedAt) return;
      await d.limits.takeMail(ip, user.email);
      await mailOrFail(user, 'verify_email', origin);
    },

    async verifyEmail(code: string): Promise<void> {
      const row = await useCode(code, 'verify_email');
      await d.users.update(row.userId, { emailVerifiedAt: now() });
    },

    /**
     * Mails a reset link when the account exists. The answer does not wait for the lookup or the mail, so
     * it takes the same time, and says the same, whether or not the account exists (a failed mail is only
     * logged: a 502 would tell that the account exists).
     */
    async requestPasswordReset(email: string, ip: string, origin: string): Promise<void> {
      requireLocal();
      await d.limits.takeMail(ip, email);
      afterReply('reset mail failed', async () => {
        const user = await d.users.findByEmail(email);
        if (user?.passwordHash) await mailCode(user, 'reset_password', origin);
      });
    },

    /** Resolves once the work started after earlier answers (reset mails) is done. */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },

    /**
     * Sets a new password with a reset code; every session of the account ends, the email counts as
     * verified, and the account's failed sign-ins are forgotten (so a lock-out by guesses from many
     * addresses ends with the reset).
     */
    async confirmPasswordReset(code: string, password: string): Promise<void> {
      requireLocal();
      if (!isStrongPassword(password)) throw badRequest(AUTH_TEXTS.weakPassword, AUTH_ERRORS.weakPassword);
      const row = await useCode(code, 'reset_password');
      const user = await d.users.findById(row.userId);
      await d.users.update(row.userId, {
        passwordHash: await hashPassword(password),
        emailVerifiedAt: user?.emailVerifiedAt ?? now(),
      });
      await d.sessionRows.deleteForUser(row.userId);
      if (user) await d.limits.forgiveAccount(user.email);
    },

    acting,

    /** The user an admin acts for with `?sudo=<email or user id>`. */
    async findSudoTarget(value: string): Promise<User | undefined> {
      const v = value.trim();
      if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v))
        return d.users.findById(v);
      return d.users.findByEmail(v.toLowerCase());
    },
  };
};

export type AccountsService = ReturnType<typeof createAccountsService>;
