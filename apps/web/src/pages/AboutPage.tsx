import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { AboutText } from '../components/AboutText/AboutText.tsx';
import { TermsAndPrivacy } from '../components/TermsAndPrivacy/TermsAndPrivacy.tsx';
import { SudoLink } from '../session/sudo-navigation.tsx';

/** /about (spec §2): the About text, the terms and privacy sections, and a way back. */
export function AboutPage() {
  const { hash } = useLocation();
  useEffect(() => {
    // The router does not scroll to a #fragment, and on a fresh load the section renders after the
    // browser's own attempt: /about#terms and /about#privacy (login, connect page) land on their section.
    if (hash.length > 1) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash]);

  return (
    <Stack spacing={3}>
      <Typography variant="h1">About Pacebeat</Typography>
      <AboutText />
      <TermsAndPrivacy />
      <div>
        <Button component={SudoLink} to="/" variant="outlined">
          Back to main page
        </Button>
      </div>
    </Stack>
  );
}
