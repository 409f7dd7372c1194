import Typography from '@mui/material/Typography';

/** /disconnect/spotify (spec §2). Only the heading for now: the page's flow (spec §2, §4) is built by a later issue. */
export function DisconnectSpotifyPage() {
  return <Typography variant="h1">Disconnect from Spotify</Typography>;
}
