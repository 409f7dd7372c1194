import Typography from '@mui/material/Typography';

/** /logout (spec §2). Only the heading for now: the page's flow (spec §2, §4) is built by a later issue. */
export function LogoutPage() {
  return <Typography variant="h1">Log out</Typography>;
}
