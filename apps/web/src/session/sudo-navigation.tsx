import { useCallback } from 'react';
import {
  Link as RouterLink,
  Navigate,
  useLocation,
  useNavigate,
  type LinkProps,
  type NavigateOptions,
} from 'react-router';
import { useSession } from './session-context.ts';

/**
 * `to` with the sudo value in its query. Sudo mode (spec §6) lasts exactly as long as the address bar
 * says `?sudo=`: every in-app link and redirect keeps it, so a reload stays in the mode and the URL
 * never hides it. Leaving the mode is one link without it (`useLeaveSudo`).
 */
export function withSudo(to: string, sudo: string | null): string {
  if (!sudo) return to;
  const url = new URL(to, 'http://app.invalid');
  url.searchParams.set('sudo', sudo);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The router's Link, keeping sudo mode. Use it (as `component={SudoLink}` on MUI parts) for every in-app link. */
export function SudoLink({ to, ...rest }: Omit<LinkProps, 'to'> & { to: string }) {
  const { sudo } = useSession();
  return <RouterLink to={withSudo(to, sudo)} {...rest} />;
}

/** The router's Navigate, keeping sudo mode. */
export function SudoNavigate({ to }: { to: string }) {
  const { sudo } = useSession();
  return <Navigate to={withSudo(to, sudo)} replace />;
}

/** `navigate(to)` keeping sudo mode. */
export function useSudoNavigate() {
  const { sudo } = useSession();
  const navigate = useNavigate();
  return useCallback(
    (to: string, options?: NavigateOptions) => navigate(withSudo(to, sudo), options),
    [navigate, sudo],
  );
}

/** The current page without `?sudo=`: where "Leave sudo mode" goes. */
export function useLeaveSudoTarget(): string {
  const { pathname, search, hash } = useLocation();
  const params = new URLSearchParams(search);
  params.delete('sudo');
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ''}${hash}`;
}

/** A link to the current page without `?sudo=` ("Leave sudo mode"); its `to` is computed, not given. */
export function LeaveSudoLink(props: Omit<LinkProps, 'to'>) {
  return <RouterLink {...props} to={useLeaveSudoTarget()} />;
}
