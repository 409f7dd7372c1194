// Deezer's 30-second MP3 previews (a CDN, paced on its own): bytes or a reason.
import { failed, notFound, ok, type Outcome, type ServiceCaller } from './outside.ts';

export function createPreviewClient(deps: { http: ServiceCaller }) {
  return {
    async download(url: string): Promise<Outcome<Uint8Array>> {
      if (!/^https?:\/\//.test(url)) return notFound('preview: no usable URL');
      const r = await deps.http.getBytes(url);
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
