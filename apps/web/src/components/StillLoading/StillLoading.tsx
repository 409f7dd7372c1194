import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** The still-loading indicator (spec §2, §4): shown once 1 s passed without data. */
export function StillLoading({ text }: { text: string }) {
  return (
    <Stack direction="row" spacing={1.5} role="status" aria-live="polite" sx={{ alignItems: 'center' }}>
      <CircularProgress size={18} />
      <Typography color="text.secondary">{text}</Typography>
    </Stack>
  );
}
