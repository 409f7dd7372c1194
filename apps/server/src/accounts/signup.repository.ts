// Who may sign up: the invitations, the mode an admin set, and the one transaction that makes a
// new account under those rules. New accounts are inserted here, not in user.repository.ts, because the
// decision (is there an admin yet? does the invitation still work?) and the insert must be one transaction,
// serialised by an advisory lock, so two sign-ups at once can neither both become the first admin nor both
// use one invitation.
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { SignupModeName } from '@pacebeat/contract/rules';
import type { Db } from '../db/client.ts';
import { invitations, signupSettings, users } from '../db/schema.ts';
import { isAdminSql, type NewUser, type User } from './user.repository.ts';

export type InvitationRow = typeof invitations.$inferSelect;

/** The one row of `signup_settings`. */
const SIGNUP_ROW = 'signup';

/** Why an invitation does not work (null: it does). */
export type InvitationProblem = 'unknown' | 'used' | 'expired' | 'other_email' | 'setup_spent';

/** What a sign-up may do, decided inside the transaction from what the database says then. */
export interface SignupRules {
  /** The mode in force (the caller reads it before: a change a moment earlier makes no difference). */
  mode: SignupModeName;
  /** The first account of an installation without an admin becomes the admin without a setup link (loopback). */
  firstAccountIsAdmin: boolean;
  /** ADMIN_EMAILS: a verified account with one of them is an admin too (so the installation has one). */
  adminEmails?: readonly string[];
  /** SHA-256 of the invitation the sign-up came with. */
  invitationHash?: string;
  now: Date;
}

export type SignupOutcome =
  | { ok: true; user: User }
  | { ok: false; reason: 'email_in_use' | 'closed' | 'invitation_required' }
  | { ok: false; reason: 'invitation'; problem: InvitationProblem; email: string | null };

/** An invitation's problem for `email` at `now`, or null when it works (a setup link also needs no admin). */
export function invitationProblem(
  row: InvitationRow | undefined,
  email: string | undefined,
  now: Date,
  adminExists: boolean,
): InvitationProblem | null {
  if (!row || row.revokedAt) return 'unknown';
  if (row.usedAt) return 'used';
  if (row.expiresAt <= now) return 'expired';
  if (row.makesAdmin && adminExists) return 'setup_spent';
  if (email !== undefined && row.email !== null && row.email !== email) return 'other_email';
  return null;
}

export const createSignupRepository = (db: Db) => ({
  /**
   * Creates an account under the sign-up rules, in one transaction under the advisory lock every sign-up
   * takes: the account becomes the admin when the installation has none and either `firstAccountIsAdmin`
   * or the invitation is the setup link; otherwise `closed` refuses it (invitations too), and `invite`
   * refuses it without a working invitation. An invitation that does not work refuses it in every mode. A working invitation is marked used by this account in the same transaction.
   */
  async createAccount(u: NewUser, rules: SignupRules): Promise<SignupOutcome> {
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('pacebeat.first-user'))`);
      const [admins] = await tx
        .select({ n: count() })
        .from(users)
        .where(isAdminSql(rules.adminEmails ?? []));
      const adminExists = (admins?.n ?? 0) > 0;
      let invitation: InvitationRow | undefined;
      if (rules.invitationHash !== undefined) {
        [invitation] = await tx
          .select()
          .from(invitations)
          .where(eq(invitations.tokenHash, rules.invitationHash))
          .for('update');
        const problem = invitationProblem(invitation, u.email, rules.now, adminExists);
        if (problem) return { ok: false, reason: 'invitation', problem, email: invitation?.email ?? null };
      }
      const isAdmin = !adminExists && (rules.firstAccountIsAdmin || invitation?.makesAdmin === true);
      // Closed: no new account but the first admin. Invite: none without a working invitation.
      if (!isAdmin && rules.mode === 'closed') return { ok: false, reason: 'closed' };
      if (!isAdmin && !invitation && rules.mode === 'invite')
        return { ok: false, reason: 'invitation_required' };
      const [created] = await tx
        .insert(users)
        .values({ ...u, isAdmin })
        .onConflictDoNothing({ target: users.email })
        .returning();
      if (!created) return { ok: false, reason: 'email_in_use' };
      if (invitation) {
        await tx
          .update(invitations)
          .set({ usedAt: rules.now, usedBy: created.id })
          .where(eq(invitations.id, invitation.id));
      }
      return { ok: true, user: created };
    });
  },

  /** The invitation with this secret's hash (the sign-in page asks whether its link still works). */
  async findInvitation(tokenHash: string): Promise<InvitationRow | undefined> {
    const [row] = await db.select().from(invitations).where(eq(invitations.tokenHash, tokenHash)).limit(1);
    return row;
  },

  async createInvitation(i: {
    tokenHash: string;
    email: string | null;
    makesAdmin: boolean;
    createdBy: string | null;
    expiresAt: Date;
  }): Promise<InvitationRow> {
    const [row] = await db.insert(invitations).values(i).returning();
    return row!;
  },

  /** The latest invitations an admin made (not setup links), newest first, with the address that used each. */
  async listInvitations(limit: number): Promise<(InvitationRow & { usedByEmail: string | null })[]> {
    const rows = await db
      .select({ invitation: invitations, usedByEmail: users.email })
      .from(invitations)
      .leftJoin(users, eq(users.id, invitations.usedBy))
      .where(eq(invitations.makesAdmin, false))
      .orderBy(desc(invitations.createdAt), desc(invitations.id))
      .limit(limit);
    return rows.map((r) => ({ ...r.invitation, usedByEmail: r.usedByEmail }));
  },

  /** Revokes an unused invitation; false when there is none by that id, or it was used already. */
  async revokeInvitation(id: string, at: Date): Promise<boolean> {
    const rows = await db
      .update(invitations)
      .set({ revokedAt: at })
      .where(and(eq(invitations.id, id), isNull(invitations.usedAt), isNull(invitations.revokedAt)))
      .returning({ id: invitations.id });
    return rows.length === 1;
  },

  /** The mode an admin set on the admin page, if any. */
  async savedMode(): Promise<SignupModeName | undefined> {
    const [row] = await db
      .select({ mode: signupSettings.mode })
      .from(signupSettings)
      .where(eq(signupSettings.id, SIGNUP_ROW));
    return row?.mode;
  },

  async saveMode(mode: SignupModeName, setBy: string): Promise<void> {
    await db
      .insert(signupSettings)
      .values({ id: SIGNUP_ROW, mode, setBy })
      .onConflictDoUpdate({ target: signupSettings.id, set: { mode, setBy, setAt: sql`now()` } });
  },
});

export type SignupRepository = ReturnType<typeof createSignupRepository>;
