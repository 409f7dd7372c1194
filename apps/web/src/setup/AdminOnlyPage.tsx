import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { plainMessage } from '../api/plain-message.ts';
import { RequireSignIn } from '../session/RequireSignIn.tsx';
import { SudoLink } from '../session/sudo-navigation.tsx';
import { useIsSetupAdmin } from './setup-queries.ts';

interface AdminOnlyPageProps<T> {
  title: string;
  /** What anyone else reads instead (a runner, or an admin in sudo mode). */
  notAdmin: string;
  /** The page's data, read only for the admin (the query is enabled by `useIsSetupAdmin`). */
  useData: () => UseQueryResult<{ data: T }>;
  children: (data: T) => ReactNode;
}

/**
 * The frame of the admin's pages (/setup/spotify, /admin): signed in, the admin acting as themselves (the
 * server checks it on every call too), a way back, the title, and the data's loading and failure.
 */
export function AdminOnlyPage<T>(props: AdminOnlyPageProps<T>) {
  return (
    <RequireSignIn>
      <AdminOnly {...props} />
    </RequireSignIn>
  );
}

function AdminOnly<T>({ title, notAdmin, useData, children }: AdminOnlyPageProps<T>) {
  const admin = useIsSetupAdmin();
  const q = useData();
  const back = (
    <Link component={SudoLink} to="/" sx={{ alignSelf: 'flex-start' }}>
      Back to main page
    </Link>
  );
  if (!admin) {
    return (
      <Stack spacing={2}>
        {back}
        <Alert severity="info">{notAdmin}</Alert>
      </Stack>
    );
  }
  const data = q.data?.data;
  return (
    <Stack spacing={3} sx={{ maxWidth: 760 }}>
      {back}
      <Typography variant="h1">{title}</Typography>
      {q.isError && <Alert severity="error">{plainMessage(q.error)}</Alert>}
      {!data && !q.isError && <CircularProgress size={24} aria-label="Loading" />}
      {data && children(data)}
    </Stack>
  );
}

/** A titled section of an admin's page (h2, named for screen readers). */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack component="section" spacing={1.5} aria-label={title}>
      <Typography variant="h2" sx={{ fontSize: '1.25rem' }}>
        {title}
      </Typography>
      {children}
    </Stack>
  );
}
