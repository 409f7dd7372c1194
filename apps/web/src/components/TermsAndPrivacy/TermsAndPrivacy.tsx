import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** Anchors on /about; the sign-in widget and the connect page link here. */
export const TERMS_ID = 'terms';
export const PRIVACY_ID = 'privacy';
export const TERMS_URL = `/about#${TERMS_ID}`;
export const PRIVACY_URL = `/about#${PRIVACY_ID}`;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack spacing={1.5} component="section" id={id} aria-labelledby={`${id}-title`}>
      <Typography variant="h2" id={`${id}-title`}>
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

/** The terms of service and privacy policy on /about (not part of the About text the main page embeds). */
export function TermsAndPrivacy() {
  return (
    <>
      <Section id={TERMS_ID} title="Terms of service">
        <Typography>
          Pacebeat is self-hosted: whoever runs this server offers it to you, as is and without warranty. It
          is a beta version, so it may fail from time to time, and the tempos it finds may be wrong.
        </Typography>
        <Typography>
          You use it with your own Spotify account, under Spotify&apos;s terms. Pacebeat reads your library
          and adds tracks only to the playlists it made. You can disconnect at any time; the playlists stay
          yours.
        </Typography>
      </Section>
      <Section id={PRIVACY_ID} title="Privacy policy">
        <Typography>
          This server stores your account&apos;s email address (with a name and a password hash if you sign up
          with a password), your sign-in sessions, your Spotify tokens (encrypted), and the Spotify track ids
          of your library with their tempos. Recent sign-in attempts are kept for a short time, with the
          address they came from, to stop password guessing.
        </Typography>
        <Typography>
          Nothing is sold or shared, except what the service needs: Spotify, to read your library and keep
          your playlists, and tempo look-ups by track at Deezer, ReccoBeats and GetSongBPM, which get a
          track&apos;s id, ISRC or artist and title, never who you are. If this server signs you in through
          Firebase, Google handles that sign-in.
        </Typography>
        <Typography>
          Disconnecting Spotify deletes the data kept about your Spotify account. To have your whole account
          removed, ask the person who runs this server.
        </Typography>
      </Section>
    </>
  );
}
