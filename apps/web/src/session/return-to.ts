/**
 * Where a visitor sent to /login from a signed-in page returns after signing in: `/login?next=<path>`.
 * Only an in-app path is followed (one leading slash, not /login or /logout); anything else, a full URL
 * or `//host` included, means the main page, so the parameter cannot send anyone off the site.
 */
export const NEXT_PARAM = 'next';

export function loginPathFor(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete('sudo'); // SudoNavigate adds it to /login itself
  const query = params.toString();
  const here = `${pathname}${query ? `?${query}` : ''}`;
  return `/login?${NEXT_PARAM}=${encodeURIComponent(here)}`;
}

export function returnPath(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return '/';
  const url = new URL(next, 'http://app.invalid');
  if (url.origin !== 'http://app.invalid') return '/';
  if (url.pathname === '/login' || url.pathname === '/logout') return '/';
  url.searchParams.delete('sudo');
  return `${url.pathname}${url.search}${url.hash}`;
}
