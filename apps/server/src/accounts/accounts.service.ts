import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import {
  AUTH_ERRORS,
  AUTH_TEXTS,
  INVITATION_DAYS,
  isStrongPassword,
  SIGNUP_ERRORS,
  SIGNUP_TEXTS,
  type Invitation,
  type LoginBody,
  type SignupBody,
  type SignupState,
} from '@pacebeat/contract';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from '../errors.ts';
import type { EmailCodePurpose, EmailCodeRepository } from './email-code.repository.ts';
import type { FirebaseVerifier } from './firebase.ts';
import type { Mailer } from './mailer.ts';
import { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from './passwords.ts';
import type { RateLimitService } from './rate-limit.service.ts';
import type { SessionRepository } from './session.repository.ts';
import type { SessionService } from './session.service.ts';
import type { SignupPolicy } from './signup-policy.ts';
import {
  invitationProblem,
  type InvitationProblem,
  type InvitationRow,
  type SignupOutcome,
  type SignupRepository,
} from './signup.repository.ts';
import type { NewUser, User, UserRepository } from './user.repository.ts';

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
  /** ADMIN_EMAILS: admins once their address is verified. */
  adminEmails: readonly string[];
  /** New accounts under the sign-up rules, invitations, the mode an admin set. */
  signups: SignupRepository;
  /** Who may sign up, and whether the first account becomes the admin without a setup link. */
  policy: SignupPolicy;
  log: Logger;
  now?: () => Date;
}

const CODE_TTL_HOURS: Record<EmailCodePurpose, number> = { verify_email: 24, reset_password: 1 };
const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');
/** The setup link printed in the log works this long (a restart without an admin prints a new one). */
const SETUP_LINK_HOURS = 24;
/** How many invitations the admin page lists. */
const INVITATIONS_LISTED = 50;

const INVITATION_TEXTS: Record<InvitationProblem, (email: string | null) => string> = {
  unknown: () => SIGNUP_TEXTS.invitationUnknown,
  used: () => SIGNUP_TEXTS.invitationUsed,
  expired: () => SIGNUP_TEXTS.invitationExpired,
  other_email: (email) => SIGNUP_TEXTS.invitationOtherEmail(email ?? ''),
  setup_spent: () => SIGNUP_TEXTS.setupLinkSpent,
};

/** A refused sign-up as the API answers it: 403 with a sentence (or 409 for a taken address). */
function refusal(outcome: Exclude<SignupOutcome, { ok: true }>): AppError {
  switch (outcome.reason) {
    case 'email_in_use':
      return conflict(AUTH_TEXTS.emailInUse, AUTH_ERRORS.emailInUse);
    case 'closed':
      return forbidden(SIGNUP_TEXTS.closed, SIGNUP_ERRORS.closed);
    case 'invitation_required':
      return forbidden(SIGNUP_TEXTS.inviteOnly, SIGNUP_ERRORS.invitationRequired);
    case 'invitation':
      return forbidden(INVITATION_TEXTS[outcome.problem](outcome.email), SIGNUP_ERRORS.invitationInvalid);
  }
}

/** An invitation as the admin page lists it. */
function invitationView(row: InvitationRow & { usedByEmail?: string | null }, now: Date): Invitation {
  return {
    id: row.id,
    email: row.email,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    status: row.revokedAt ? 'revoked' : row.usedAt ? 'used' : row.expiresAt <= now ? 'expired' : 'open',
    used_by: row.usedByEmail ?? null,
  };
}

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
  // ADMIN_EMAILS counts only for a verified address: without mail nothing is verified, and whoever signed
  // up first with a listed address would otherwise own the installation.
  const isAdmin = (u: Pick<User, 'email' | 'isAdmin' | 'emailVerifiedAt'>) =>
    u.isAdmin || (u.emailVerifiedAt !== null && d.adminEmails.includes(u.email));
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

  /** A new account (local or Firebase) under the sign-up rules; throws the refusal (403, or 409). */
  async function createAccount(u: NewUser, invitation: string | undefined): Promise<User> {
    const { mode } = await d.policy.current();
    const outcome = await d.signups.createAccount(u, {
      mode,
      firstAccountIsAdmin: d.policy.firstAccountIsAdmin,
      adminEmails: d.adminEmails,
      invitationHash: invitation === undefined ? undefined : hashCode(invitation),
      now: now(),
    });
    if (!outcome.ok) {
      if (outcome.reason !== 'email_in_use') d.log.info({ reason: outcome.reason, mode }, 'sign-up refused');
      throw refusal(outcome);
    }
    return outcome.user;
  }

  /** Who may sign up now, and whether `invitation` works (the sign-in page). */
  async function signupState(invitation: string | undefined): Promise<SignupState> {
    const [{ mode }, { admins }] = await Promise.all([d.policy.current(), d.users.counts(d.adminEmails)]);
    let state: SignupState['invitation'] = null;
    if (invitation !== undefined) {
      const row = await d.signups.findInvitation(hashCode(invitation));
      const problem = invitationProblem(row, undefined, now(), admins > 0);
      // Closed: only the setup link still works (while there is no admin).
      const closed = problem === null && mode === 'closed' && row?.makesAdmin !== true;
      state = {
        valid: problem === null && !closed,
        problem: closed
          ? SIGNUP_TEXTS.closed
          : problem === null
            ? null
            : INVITATION_TEXTS[problem](row?.email ?? null),
        email: problem === null ? (row?.email ?? null) : null,
        makes_admin: problem === null && row?.makesAdmin === true,
      };
    }
    return {
      mode,
      allowed: mode === 'open' || (admins === 0 && d.policy.firstAccountIsAdmin),
      invitation: state,
    };
  }

  const emailNotVerified = () =>
    unauthorized('We need to verify your email address.', AUTH_ERRORS.emailNotVerified);

  return {
    provider: local ? ('local' as const) : ('firebase' as const),

    /** Public configuration of the enabled providers among `kinds`, and who may sign up (POST /api/login_data). */
    async loginData(kinds: readonly string[], invitation?: string) {
      const data: {
        signup?: SignupState;
        firebase?: { data: { web_config: Record<string, string>; auth_emulator_url?: string } };
        local?: { data: { email_verification: boolean } };
      } = { signup: await signupState(invitation) };
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
      const user = await createAccount({ email: body.email, name: body.name, passwordHash }, body.invitation);
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
          user = await createAccount(
            {
              email: identity.email,
              name: identity.name ?? '',
              firebaseUid: identity.uid,
              emailVerifiedAt: now(),
            },
            body.invitation,
          );
          d.log.info({ userId: user.id, isAdmin: user.isAdmin }, 'firebase account created');
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

    /**
     * At start (a process that serves the pages): while the installation has no admin, says in the log
     * how it gets one. At loopback addresses the next account becomes it; elsewhere a one-time setup link
     * (an invitation that makes its account the admin, 24 hours) is made and printed, and only it does.
     * Also warns when ADMIN_EMAILS cannot work because no address is ever verified (no mail).
     */
    async announceFirstAdmin(origin: string): Promise<{ setupLink: string | null }> {
      const howToGrant =
        'or grant admin to an existing account with `npm run admin -- grant EMAIL` (in a container: `docker compose exec pacebeat npm run admin -- grant EMAIL`)';
      if (local && d.adminEmails.length > 0 && !d.mailer.delivers) {
        d.log.warn(
          `ADMIN_EMAILS makes an account an admin only once its address is verified, and without SMTP_URL no address is verified: grant admin with \`npm run admin -- grant EMAIL\` instead (in a container: \`docker compose exec pacebeat npm run admin -- grant EMAIL\`)`,
        );
      }
      const { admins, accounts } = await d.users.counts(d.adminEmails);
      if (admins > 0) return { setupLink: null };
      if (d.policy.firstAccountIsAdmin) {
        d.log.warn(
          `This Pacebeat has no admin yet: the next account signed up at ${origin}/login becomes its admin, ${howToGrant}.`,
        );
        return { setupLink: null };
      }
      const token = randomBytes(32).toString('base64url');
      await d.signups.createInvitation({
        tokenHash: hashCode(token),
        email: null,
        makesAdmin: true,
        createdBy: null,
        expiresAt: new Date(now().getTime() + SETUP_LINK_HOURS * 3_600_000),
      });
      const setupLink = `${origin}/login?invite=${token}`;
      d.log.warn(
        { accounts },
        `This Pacebeat has no admin yet. Open this setup link and sign up: that account becomes the admin (it works once, for ${SETUP_LINK_HOURS} hours; a restart prints a new one while there is no admin): ${setupLink} ; ${howToGrant}.`,
      );
      return { setupLink };
    },

    /** The admin page: an invitation link (for one address, or anyone who has it), mailed when mail goes out. */
    async invite(
      adminId: string,
      email: string | null,
      origin: string,
    ): Promise<{ invitation: Invitation; link: string; mailed: boolean }> {
      const token = randomBytes(32).toString('base64url');
      const row = await d.signups.createInvitation({
        tokenHash: hashCode(token),
        email,
        makesAdmin: false,
        createdBy: adminId,
        expiresAt: new Date(now().getTime() + INVITATION_DAYS * 86_400_000),
      });
      const link = `${origin}/login?invite=${token}`;
      d.log.info({ adminId, invitationId: row.id }, 'invitation made');
      let mailed = false;
      if (email && d.mailer.delivers) {
        try {
          await d.mailer.send({
            to: email,
            subject: 'You are invited to Pacebeat',
            text: `Hello,\n\nYou are invited to Pacebeat, running playlists at the tempo of your stride. Follow this link to make your account (it works once, for ${INVITATION_DAYS} days):\n\n${link}\n`,
            link,
          });
          mailed = true;
        } catch (err) {
          d.log.error({ err, invitationId: row.id }, 'invitation mail failed');
        }
      }
      return { invitation: invitationView(row, now()), link, mailed };
    },

    async listInvitations(): Promise<Invitation[]> {
      const rows = await d.signups.listInvitations(INVITATIONS_LISTED);
      return rows.map((r) => invitationView(r, now()));
    },

    async revokeInvitation(id: string): Promise<void> {
      if (!(await d.signups.revokeInvitation(id, now())))
        throw notFound('No unused invitation with that id.', 'InvitationNotFound');
    },

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
