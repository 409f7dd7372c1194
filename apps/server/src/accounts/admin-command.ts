// What `npm run admin` does (app/admin-cli.ts), on a database handle, so the tests run it as the CLI does.
import { createUserRepository } from './user.repository.ts';

/** The Drizzle handle the repositories take (only repositories import the client itself). */
type Db = Parameters<typeof createUserRepository>[0];

export const ADMIN_USAGE = 'Usage: npm run admin -- grant EMAIL | revoke EMAIL | list';

/**
 * Runs one command on `db`; answers the exit status. `out` gets the lines for the operator, `adminEmails`
 * is ADMIN_EMAILS (listed for what it grants once an address is verified).
 */
export async function runAdminCommand(
  db: Db,
  args: readonly string[],
  out: (line: string) => void,
  adminEmails: readonly string[] = [],
): Promise<number> {
  const users = createUserRepository(db);
  const [command, value, ...rest] = args;
  const email = value?.trim().toLowerCase();
  if ((command === 'grant' || command === 'revoke') && email && rest.length === 0) {
    const user = await users.setAdmin(email, command === 'grant');
    if (!user) {
      out(`No account uses ${email}: sign up with it first, then run this again.`);
      return 1;
    }
    out(
      command === 'grant'
        ? `${user.email} is an admin now (it takes effect at once, in every Pacebeat process).`
        : `${user.email} is no admin now${adminEmails.includes(user.email) && user.emailVerifiedAt ? ' by this command, but ADMIN_EMAILS still names it and its address is verified: remove it there too' : ''}.`,
    );
    if (command === 'revoke' && (await users.counts(adminEmails)).admins === 0)
      out('This Pacebeat has no admin now: grant one, or see docs/install.md for how the next one is made.');
    return 0;
  }
  if (command === 'list' && value === undefined) {
    const admins = await users.listAdmins();
    const { accounts } = await users.counts();
    out(`${accounts} account${accounts === 1 ? '' : 's'}; admins (granted):`);
    for (const a of admins) out(`  ${a.email}`);
    if (admins.length === 0) out('  none');
    if (adminEmails.length > 0)
      out(`ADMIN_EMAILS (admins once the address is verified): ${adminEmails.join(', ')}`);
    return 0;
  }
  out(ADMIN_USAGE);
  return 2;
}
