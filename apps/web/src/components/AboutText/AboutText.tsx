import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** The About text: shown on /about and, for visitors, on the main page (spec §2). */
export function AboutText() {
  return (
    <Stack spacing={2} component="section" aria-label="About Pacebeat">
      <Typography>
        Pacebeat is made by a runner, for runners. A song whose beat matches your steps makes a steady pace
        feel easier, so Pacebeat builds your running playlists from the music you already love.
      </Typography>
      <Typography>
        Connect your Spotify account and Pacebeat scans all tracks of all artists in your music library, finds
        each track&apos;s tempo in beats per minute, and keeps several playlists growing, one per pace. When
        you like new music, the tracks that fit are added on their own.
      </Typography>
      <Typography>
        Your music-account data is used only to find suitable tracks and to add them to your playlists;
        nothing else. When you disconnect, it is deleted. The playlists already made stay in your account.
      </Typography>
      <Typography color="text.secondary">
        This is a beta version, so it may fail from time to time.
      </Typography>
    </Stack>
  );
}
