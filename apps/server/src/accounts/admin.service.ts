// The admin page: who may sign up, the invitations, and the counts against development mode's
// 5 runners. The accounts module's parts, and the Spotify module's count of connected runners.
import { DEVELOPMENT_MODE_RUNNERS, type AdminSignupReply, type SignupMode } from '@pacebeat/contract';
import type { AccountsService } from './accounts.service.ts';
import type { SignupPolicy } from './signup-policy.ts';
import type { SignupRepository } from './signup.repository.ts';
import type { UserRepository } from './user.repository.ts';

export interface AdminServiceDeps {
  accounts: Pick<AccountsService, 'listInvitations' | 'invite' | 'revokeInvitation'>;
  users: Pick<UserRepository, 'counts'>;
  /** ADMIN_EMAILS (a verified account with one of them counts as an admin). */
  adminEmails?: readonly string[];
  signups: Pick<SignupRepository, 'saveMode'>;
  policy: Pick<SignupPolicy, 'current'>;
  /** Runners whose Spotify is connected now. */
  connectedRunners: () => Promise<number>;
  /** Demo mode is in force. */
  demo: () => Promise<boolean>;
}

export function createAdminService(d: AdminServiceDeps) {
  async function state(): Promise<AdminSignupReply['data']> {
    const [mode, counts, connected, demo, invitations] = await Promise.all([
      d.policy.current(),
      d.users.counts(d.adminEmails),
      d.connectedRunners(),
      d.demo().catch(() => false),
      d.accounts.listInvitations(),
    ]);
    return {
      mode: mode.mode,
      source: mode.source,
      default_mode: mode.defaultMode,
      demo,
      accounts: counts.accounts,
      admins: counts.admins,
      connected_runners: connected,
      runner_limit: DEVELOPMENT_MODE_RUNNERS,
      invitations,
    };
  }
  return {
    state,
    /** Saves the mode (SIGNUP_MODE, when set, still wins: the reply says which is in force). */
    async setMode(adminId: string, mode: SignupMode) {
      await d.signups.saveMode(mode, adminId);
      return state();
    },
    invite: d.accounts.invite,
    revokeInvitation: d.accounts.revokeInvitation,
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
