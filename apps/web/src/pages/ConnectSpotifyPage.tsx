import Typography from '@mui/material/Typography';

/** /connect/spotify (spec §2). Only the heading for now: the page's flow (spec §2, §4) is built by a later issue. */
export function ConnectSpotifyPage() {
  return <Typography variant="h1">Connect to Spotify</Typography>;
}
