// The admin page's texts: who may sign up, invitations, and development mode's 5 runners.
import type { SignupMode } from '@pacebeat/contract';

export const ADMIN_PAGE = {
  title: 'Runners and sign-up',
  menuLink: 'Runners and sign-up',
  notAdmin: 'This page is for the admin of this Pacebeat, signed in as themselves.',
  countsTitle: 'Runners',
  connected: (n: number, limit: number) =>
    `${n} of ${limit} runners have their Spotify connected (a Spotify app in development mode serves at most ${limit}).`,
  connectedDemo: (n: number) =>
    `${n} runner${n === 1 ? '' : 's'} connected to the simulated Spotify (demo mode). A real Spotify app in development mode serves at most 5.`,
  accounts: (accounts: number, admins: number) =>
    `${accounts} account${accounts === 1 ? '' : 's'} on this Pacebeat, ${admins} of them admin${admins === 1 ? '' : 's'}.`,
  full: 'Every place is taken: a new runner can sign up but not connect their Spotify until one leaves (and you add them under User Management in Spotify’s dashboard).',
  modeTitle: 'Who may sign up',
  modeLabel: 'Sign-up',
  modes: {
    open: { label: 'Open', help: 'Anyone who reaches this Pacebeat can make an account.' },
    invite: {
      label: 'By invitation',
      help: 'Only with an invitation link you make below (each works once, for 7 days).',
    },
    closed: { label: 'Closed', help: 'Nobody can make an account; invitations do not work either.' },
  } satisfies Record<SignupMode, { label: string; help: string }>,
  fromEnv: (mode: string) =>
    `SIGNUP_MODE is set in the environment (${mode}), and it wins over this page: change it there and restart Pacebeat.`,
  defaultIs: (mode: string) => `Not chosen here yet: the default, ${mode}, is in force.`,
  saved: 'Saved.',
  inviteTitle: 'Invite a runner',
  inviteBody:
    'Make a link and send it to the runner yourself (with mail set up, an invitation for an address is mailed too). It works once, for 7 days.',
  /** With a real Spotify only: in demo mode there is no dashboard to add anyone to. */
  inviteSpotifyNote: 'Remember to add their Spotify account under User Management in Spotify’s dashboard.',
  emailLabel: 'Their email (optional)',
  emailHint: 'With an address, only that address may use the link.',
  makeLink: 'Make an invitation link',
  newLink: 'The invitation link (shown once):',
  mailed: (email: string) => `It was mailed to ${email} too.`,
  closedNote: 'Sign-up is closed: invitations work only while sign-up is open or by invitation.',
  listTitle: 'Invitations',
  none: 'No invitations yet.',
  anyone: 'anyone with the link',
  status: { open: 'open', used: 'used', expired: 'expired', revoked: 'revoked' },
  usedBy: (email: string) => `used by ${email}`,
  expires: (when: string) => `until ${when}`,
  revoke: 'Revoke',
  revokeLabel: (who: string) => `Revoke the invitation for ${who}`,
} as const;
