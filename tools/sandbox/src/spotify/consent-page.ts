// The HTML pages of the accounts service: the consent screen and error pages.
import type { User } from '../world/library.ts';

const SCOPE_TEXT: Record<string, string> = {
  'user-library-read': 'Access your saved content',
  'playlist-read-private': 'Access your private playlists',
  'playlist-read-collaborative': 'Access your collaborative playlists',
  'user-follow-read': 'Access your followers and who you are following',
  'playlist-modify-public': 'Manage your public playlists',
  'playlist-modify-private': 'Manage your private playlists',
  'user-read-private': 'Access your subscription details',
  'user-read-email': 'Get your real email address',
};

export const KNOWN_SCOPES = new Set([
  ...Object.keys(SCOPE_TEXT),
  'user-library-modify',
  'user-follow-modify',
  'user-top-read',
  'user-read-recently-played',
  'user-read-playback-state',
  'user-modify-playback-state',
  'user-read-currently-playing',
  'streaming',
  'app-remote-control',
  'ugc-image-upload',
  'user-read-playback-position',
  'user-soa-link',
  'user-soa-unlink',
  'user-manage-entitlements',
  'user-manage-partner',
  'user-create-partner',
]);

export const esc = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#121212;color:#fff;display:flex;justify-content:center;padding:40px 16px;margin:0}
main{max-width:460px;width:100%;background:#181818;border-radius:8px;padding:32px}
h1{font-size:22px;margin:0 0 8px} .muted{color:#b3b3b3;font-size:14px} ul{padding-left:20px;line-height:1.7}
label{display:block;margin:20px 0 6px;font-size:14px} select{width:100%;padding:8px;border-radius:4px;font-size:15px}
.buttons{display:flex;gap:12px;margin-top:28px} button{flex:1;padding:12px;border-radius:500px;border:0;font-size:16px;font-weight:700;cursor:pointer}
#accept{background:#1ed760;color:#000} #cancel{background:transparent;color:#fff;border:1px solid #727272}
.badge{display:inline-block;background:#e91429;color:#fff;border-radius:4px;padding:2px 6px;font-size:12px;margin-left:6px}
</style></head><body><main>${body}</main></body></html>`;

export function consentPage(p: {
  requestId: string;
  clientId: string;
  scopes: string[];
  users: User[];
  selected?: string;
  registered: (u: User) => boolean;
}): string {
  const scopes = p.scopes.length
    ? p.scopes
        .map(
          (s) =>
            `<li data-scope="${esc(s)}">${esc(SCOPE_TEXT[s] ?? s)} <span class="muted">(${esc(s)})</span></li>`,
        )
        .join('')
    : '<li>Read your public profile</li>';
  const options = p.users
    .map(
      (u) =>
        `<option value="${esc(u.id)}"${u.id === p.selected ? ' selected' : ''}>${esc(u.displayName)} (${esc(u.id)})${p.registered(u) ? '' : ' – not on the app\u2019s user list'}</option>`,
    )
    .join('');
  return page(
    'Spotify (sandbox) – Authorize',
    `<p class="muted">Spotify sandbox<span class="badge">simulated</span></p>
<h1>Allow <span id="client-id">${esc(p.clientId)}</span> to access your account?</h1>
<p class="muted">The app will be able to:</p>
<ul id="scopes">${scopes}</ul>
<form method="post" action="authorize/decision">
<input type="hidden" name="request_id" value="${esc(p.requestId)}">
<label for="user">Log in as (simulated Spotify user)</label>
<select id="user" name="user">${options}</select>
<div class="buttons">
<button id="cancel" type="submit" name="action" value="cancel">Cancel</button>
<button id="accept" type="submit" name="action" value="accept">Accept</button>
</div>
</form>`,
  );
}

export function errorPage(message: string): string {
  return page(
    'Spotify (sandbox) – Error',
    `<h1>Oops! Something went wrong</h1><p id="error">${esc(message)}</p>`,
  );
}
