import { z } from 'zod';
import { Email } from './accounts.ts';
import { SIGNUP_MODES } from './admin.rules.ts';

// The admin page, under /api/admin: who may sign up, invitations, and the installation's counts.
// Admins only, never in sudo mode.

export const SignupMode = z.enum(SIGNUP_MODES);
export type SignupMode = z.infer<typeof SignupMode>;

/** One invitation as the admin page lists it (its secret is never shown again after it was made). */
export const Invitation = z.object({
  id: z.string(),
  /** Only this address may sign up with it; null: anyone with the link. */
  email: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  /** `open` (still works), `used`, `expired` or `revoked`. */
  status: z.enum(['open', 'used', 'expired', 'revoked']),
  /** The account made with it. */
  used_by: z.string().nullable(),
});
export type Invitation = z.infer<typeof Invitation>;

/** GET and PUT /api/admin/signup: what the admin page shows. */
export const AdminSignupReply = z.object({
  data: z.object({
    /** The mode in force. */
    mode: SignupMode,
    /** `env`: SIGNUP_MODE (it wins over the page); `database`: set on this page; `default`: neither. */
    source: z.enum(['env', 'database', 'default']),
    /** The mode without SIGNUP_MODE and the page: `open` in demo mode at a loopback address, else `invite`. */
    default_mode: SignupMode,
    /** Pacebeat runs its simulated Spotify (demo mode). */
    demo: z.boolean(),
    /** Accounts, admins among them. */
    accounts: z.number().int(),
    admins: z.number().int(),
    /** Runners whose Spotify is connected now, against `runner_limit` (development mode's 5). */
    connected_runners: z.number().int(),
    runner_limit: z.number().int(),
    /** The latest invitations (50 at most), newest first. */
    invitations: z.array(Invitation),
  }),
});
export type AdminSignupReply = z.infer<typeof AdminSignupReply>;

/** PUT /api/admin/signup. */
export const SignupModeBody = z.object({ mode: SignupMode });
export type SignupModeBody = z.infer<typeof SignupModeBody>;

/** POST /api/admin/invitations: a new link, for one address or for anyone who has it. */
export const InvitationBody = z.object({ email: Email.nullable().optional() });
export type InvitationBody = z.infer<typeof InvitationBody>;

export const InvitationCreatedReply = z.object({
  data: z.object({
    invitation: Invitation,
    /** The link to send: `<origin>/login?invite=<secret>` (shown once). */
    link: z.string(),
    /** The link was mailed to the address (only with SMTP_URL). */
    mailed: z.boolean(),
  }),
});
export type InvitationCreatedReply = z.infer<typeof InvitationCreatedReply>;

/** DELETE /api/admin/invitations/:id. */
export const InvitationParams = z.object({ id: z.uuid('No such invitation.') });
export type InvitationParams = z.infer<typeof InvitationParams>;
