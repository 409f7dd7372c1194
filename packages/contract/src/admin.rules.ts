// Who may sign up, and the admin page, without zod: the modes, the invitation link's shape and
// the texts the server answers and the pages show.

export const SIGNUP_MODES = ['open', 'invite', 'closed'] as const;
export type SignupModeName = (typeof SIGNUP_MODES)[number];

/** An invitation's secret as it appears in a link (`/login?invite=…`): base64url, 43 characters today. */
export const INVITATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;
/** How long an invitation link works. */
export const INVITATION_DAYS = 7;
/** Development mode's limit of Spotify accounts per app (Spotify's rule, shown on the admin page). */
export const DEVELOPMENT_MODE_RUNNERS = 5;

export const SIGNUP_TEXTS = {
  closed:
    'Sign-up is closed on this Pacebeat: it takes no new accounts. Ask its owner if you should have one.',
  inviteOnly: 'Sign-up on this Pacebeat is by invitation. Ask its owner for an invitation link.',
  invitationUnknown:
    'This invitation link is not valid: it may be incomplete or revoked. Ask the owner of this Pacebeat for a new one.',
  invitationUsed: 'This invitation link was used already. Ask the owner of this Pacebeat for a new one.',
  invitationExpired: 'This invitation link has expired. Ask the owner of this Pacebeat for a new one.',
  invitationOtherEmail: (email: string) =>
    `This invitation is for ${email}: sign up with that address, or ask for another invitation.`,
  setupLinkSpent:
    'This setup link is no longer valid: this Pacebeat has an admin already. Sign in, or ask its admin for an invitation.',
  badToken: 'That invitation link is not complete: copy the whole link.',
} as const;

/** Stable `error_name`s of a refused sign-up (HTTP 403). */
export const SIGNUP_ERRORS = {
  closed: 'SignupClosed',
  invitationRequired: 'InvitationRequired',
  invitationInvalid: 'InvitationInvalid',
} as const;
