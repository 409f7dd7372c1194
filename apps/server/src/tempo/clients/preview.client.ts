// Deezer's 30-second MP3 previews (a CDN, paced on its own): bytes or a reason. The URL comes from
// Deezer's answer, so it is fetched only from the allowed hosts: an answer cannot point the server
// at an address of its own network.
import { failed, notFound, ok, type CallOptions, type Outcome, type ServiceCaller } from './outside.ts';

/** True when `host` is one of `allowed` or a subdomain of one. */
export const hostAllowed = (host: string, allowed: readonly string[]) =>
  allowed.some((a) => host === a || host.endsWith(`.${a}`));

export function createPreviewClient(deps: { http: ServiceCaller; allowedHosts: readonly string[] }) {
  return {
    async download(url: string, opts?: CallOptions): Promise<Outcome<Uint8Array>> {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return notFound('preview: no usable URL');
      }
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
        return notFound('preview: no usable URL');
      if (!hostAllowed(parsed.hostname.toLowerCase(), deps.allowedHosts)) {
        return notFound(`preview: host ${parsed.hostname} is not an allowed preview host`);
      }
      const r = await deps.http.getBytes(url, opts);
      if (r.kind !== 'ok') return r;
      if (r.value.status === 404 || r.value.status === 410 || r.value.status === 403) {
        return notFound(`preview: HTTP ${r.value.status}`);
      }
      if (r.value.status !== 200) return failed(`preview: HTTP ${r.value.status}`);
      return ok(r.value.body);
    },
  };
}

export type PreviewClient = ReturnType<typeof createPreviewClient>;
