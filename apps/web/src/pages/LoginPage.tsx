import Typography from '@mui/material/Typography';

/** /login (spec §2). Only the heading for now: the page's flow (spec §2, §4) is built by a later issue. */
export function LoginPage() {
  return <Typography variant="h1">Log in</Typography>;
}
