// The consent page in a real Chromium: a small app page runs the PKCE flow in the browser (so the
// token endpoint and the Web API must allow cross-origin calls), the test picks a user and clicks.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from '@playwright/test';
import { startSandbox, type Sandbox } from '../index.ts';

const CHROMIUM = '/usr/bin/chromium';

const appPage = (
  accounts: string,
  api: string,
) => `<!doctype html><html><body><pre id="out">working</pre><script type="module">
const out = document.getElementById('out');
const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const params = new URLSearchParams(location.search);
const redirect = location.origin + '/callback';
if (location.pathname === '/') {
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(48)));
  sessionStorage.setItem('verifier', verifier);
  const challenge = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  location.href = '${accounts}/authorize?' + new URLSearchParams({ client_id: 'pacebeat-demo', response_type: 'code', redirect_uri: redirect,
    code_challenge_method: 'S256', code_challenge: challenge, scope: 'user-library-read playlist-read-private', state: 'abc' });
} else if (params.get('error')) {
  out.textContent = 'error:' + params.get('error') + ' state:' + params.get('state');
} else {
  const res = await fetch('${accounts}/api/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: params.get('code'), redirect_uri: redirect, client_id: 'pacebeat-demo', code_verifier: sessionStorage.getItem('verifier') }) });
  const tokens = await res.json();
  const me = await (await fetch('${api}/me', { headers: { authorization: 'Bearer ' + tokens.access_token } })).json();
  out.textContent = 'user:' + me.id + ' state:' + params.get('state');
}
</script></body></html>`;

describe.skipIf(!existsSync(CHROMIUM))('consent page in Chromium', () => {
  let sb: Sandbox;
  let app: Server;
  let appUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    sb = await startSandbox({ size: 'tiny', seed: 4 });
    app = createServer((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(appPage(sb.baseUrls.spotifyAccounts, sb.baseUrls.spotifyApi)),
    );
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    app?.close();
    await sb?.close();
  });

  it(
    'Accept as a chosen user: code, token exchange and /me from the browser',
    { timeout: 60_000 },
    async () => {
      const page = await browser.newPage();
      await page.goto(appUrl);
      await page.waitForSelector('#accept');
      expect(await page.textContent('#client-id')).toBe('pacebeat-demo');
      expect(await page.locator('#scopes li').count()).toBe(2);
      expect(await page.inputValue('#user')).toBe('ana.runs');
      await page.selectOption('#user', 'dana');
      await page.click('#accept');
      await page.locator('#out', { hasText: /^user:/ }).waitFor();
      expect(await page.textContent('#out')).toBe('user:dana state:abc');
      await page.close();
    },
  );

  it('Cancel returns error=access_denied to the app', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    await page.goto(appUrl);
    await page.click('#cancel');
    await page.locator('#out', { hasText: /^error:/ }).waitFor();
    expect(await page.textContent('#out')).toBe('error:access_denied state:abc');
    await page.close();
  });
});
