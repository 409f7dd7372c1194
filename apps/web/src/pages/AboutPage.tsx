import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { AboutText } from '../components/AboutText/AboutText.tsx';

/** /about (spec §2): the About text and a way back. */
export function AboutPage() {
  return (
    <Stack spacing={3}>
      <Typography variant="h1">About Pacebeat</Typography>
      <AboutText />
      <div>
        <Button component={RouterLink} to="/" variant="outlined">
          Back to main page
        </Button>
      </div>
    </Stack>
  );
}
