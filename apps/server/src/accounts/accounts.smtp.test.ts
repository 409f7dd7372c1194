import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_TEXTS, ErrorReply, LoginDataReply } from '@pacebeat/contract';
import { buildTestApp, sessionCookie, uniqueEmail, uniqueIp } from '../../test/accounts-app.ts';

interface Received {
  to: string;
  text: string;
}

/** Undoes quoted-printable (soft line breaks and =XX escapes) in a raw mail. */
const decodeQp = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** A real SMTP server on a free port that keeps every mail it receives. */
async function startSmtp() {
  const mails: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address).join(','),
          text: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** The link in the latest mail to `to` for `mode` (the app answers only after the SMTP server took the mail). */
    linkFor(to: string, mode: string): URL {
      const mail = mails.filter((m) => m.to === to && decodeQp(m.text).includes(`mode=${mode}`)).at(-1);
      const link = mail && /https?:\/\/\S+/.exec(decodeQp(mail.text))?.[0];
      if (!link) throw new Error(`no ${mode} mail to ${to}`);
      return new URL(link);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('accounts with SMTP: verification and reset mails', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp({ env: { SMTP_URL: smtp.url, SMTP_FROM: 'Pacebeat <pace@example.org>' } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, payload, remoteAddress: uniqueIp() });

  it('requires a verified email: sign-up mails a link, login answers ExRestApiAuthEmailNotVerified until the link is used', async () => {
    const data = LoginDataReply.parse((await post('/api/login_data', { kinds: ['local'] })).json());
    expect(data.data.local?.data.email_verification).toBe(true);

    const email = uniqueEmail();
    const signup = await post('/api/signup', { email, name: 'Mailer', password: 'tempo170' });
    expect(signup.json()).toEqual({ data: { signed_in: false } });
    expect(signup.cookies.find((c) => c.name === 'pacebeat_session')).toBeUndefined();

    const early = await post('/api/login', { provider: 'local', email, password: 'tempo170' });
    expect(early.statusCode).toBe(401);
    expect(ErrorReply.parse(early.json()).error_name).toBe('ExRestApiAuthEmailNotVerified');

    // The page then asks for a new mail; that one arrives too.
    const again = await post('/api/send_verification', { email, password: 'tempo170' });
    expect(again.statusCode, again.body).toBe(200);
    const link = smtp.linkFor(email, 'verifyEmail');
    expect(link.pathname).toBe('/login');
    expect(link.origin).toBe('http://localhost');
    const verified = await post('/api/verify_email', { code: link.searchParams.get('code')! });
    expect(verified.statusCode, verified.body).toBe(200);

    const ok = await post('/api/login', { provider: 'local', email, password: 'tempo170' });
    expect(ok.statusCode, ok.body).toBe(200);
    sessionCookie(ok);
  });

  it('mails a reset link that sets a new password once', async () => {
    const email = uniqueEmail();
    await post('/api/signup', { email, name: 'Reset', password: 'tempo170' });
    expect((await post('/api/password_reset', { email })).statusCode).toBe(200);
    await t.mod.accounts.settled(); // the mail goes out after the answer
    const code = smtp.linkFor(email, 'resetPassword').searchParams.get('code')!;
    const weak = await post('/api/password_reset/confirm', { code, password: 'short' });
    expect(ErrorReply.parse(weak.json()).error.message).toBe(AUTH_TEXTS.weakPassword);
    expect((await post('/api/password_reset/confirm', { code, password: 'cadence180' })).statusCode).toBe(
      200,
    );
    const reused = await post('/api/password_reset/confirm', { code, password: 'cadence190' });
    expect(reused.statusCode).toBe(400);
    // The reset proves the mailbox, so the account may sign in with the new password.
    const ok = await post('/api/login', { provider: 'local', email, password: 'cadence180' });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('answers the same for an unknown email, and sends nothing', async () => {
    const email = uniqueEmail();
    expect((await post('/api/password_reset', { email })).statusCode).toBe(200);
    await t.mod.accounts.settled();
    expect(() => smtp.linkFor(email, 'resetPassword')).toThrow(/no resetPassword mail/);
  });
});

describe('accounts with an unreachable SMTP server', () => {
  it('still creates the account; asking for a new mail then answers 502 MailFailed (the page shows "send failed")', async () => {
    const closed = await startSmtp();
    const url = closed.url;
    await closed.close(); // nothing listens on this port any more
    const t = await buildTestApp({ env: { SMTP_URL: url } });
    try {
      const email = uniqueEmail();
      const post = (path: string, payload: object) =>
        t.app.inject({ method: 'POST', url: path, payload, remoteAddress: uniqueIp() });
      const signup = await post('/api/signup', { email, name: 'NoMail', password: 'tempo170' });
      expect(signup.statusCode, signup.body).toBe(200);
      expect(signup.json()).toEqual({ data: { signed_in: false } });
      const login = await post('/api/login', { provider: 'local', email, password: 'tempo170' });
      expect(ErrorReply.parse(login.json()).error_name).toBe('ExRestApiAuthEmailNotVerified');
      const again = await post('/api/send_verification', { email, password: 'tempo170' });
      expect(again.statusCode).toBe(502);
      expect(ErrorReply.parse(again.json()).error_name).toBe('MailFailed');
    } finally {
      await t.close();
    }
  });
});
