import { fireEvent, screen, waitFor } from '@testing-library/react';
import { AUTH_TEXTS, FIELD_LIMITS, FIELD_TEXTS, SIGNUP_TEXTS } from '@pacebeat/contract';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { errorReply, jsonReply, renderApp, type FakeApi, preloadPage } from '../test/render-app.tsx';
import { PLAIN } from '../api/plain-message.ts';
import { PRIVACY_URL, TERMS_URL } from '../components/TermsAndPrivacy/TermsAndPrivacy.tsx';
import { whoamiReply } from '../test/status-fixtures.ts';
import { LOGIN_TEXTS } from './login-texts.ts';

const LOCAL = { data: { local: { data: { email_verification: true } } } };
const WHOAMI = {
  data: {
    authenticated: true,
    user: { id: 'u1', email: 'r@example.org', name: 'R', is_admin: false },
    services: {},
    disabled_services: [],
    sudo: null,
  },
};

/** A server with local accounts; `login` answers POST /api/login. */
function localServer(
  login: () => Response,
  extra: FakeApi = () => errorReply(404, 'NotFound', 'no'),
): FakeApi {
  let signedIn = false;
  return (path, init) => {
    if (path === '/api/login_data') return jsonReply(200, LOCAL);
    if (path === '/api/login') {
      const res = login();
      signedIn = res.ok;
      return res;
    }
    if (path === '/api/whoami')
      return signedIn ? jsonReply(200, WHOAMI) : errorReply(401, 'Unauthorized', 'No');
    if (path === '/api/ping') return errorReply(401, 'Unauthorized', 'No');
    return extra(path, init);
  };
}

function fillSignIn(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

beforeAll(() => preloadPage('/login'), 120_000);

describe('LoginPage', () => {
  it('goes to / when the user is already signed in', async () => {
    const { router } = renderApp('/login', (path) =>
      path.startsWith('/api/whoami') ? jsonReply(200, whoamiReply()) : jsonReply(200, LOCAL),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('a visitor: no call that answers 401 (no ping) and nothing in the console', async () => {
    const log = vi.spyOn(console, 'error');
    const { fetchMock } = renderApp('/login', (path) =>
      path.startsWith('/api/whoami')
        ? jsonReply(200, { data: { ...whoamiReply().data, authenticated: false, user: null, services: {} } })
        : path === '/api/login_data'
          ? jsonReply(200, LOCAL)
          : jsonReply(200, { data: { getsongbpm: false } }),
    );
    await screen.findByRole('heading', { name: 'Sign in' });
    const urls = fetchMock.mock.calls.map(([url]) => String(url));
    expect(urls).not.toContain('/api/ping');
    expect(log).not.toHaveBeenCalled();
  });

  it('limits every field and checks the email lengths before calling the server', async () => {
    const signup = vi.fn(() => jsonReply(200, { data: { signed_in: true } }));
    renderApp(
      '/login',
      localServer(
        () => jsonReply(200, {}),
        (path) => (path === '/api/signup' ? signup() : errorReply(404, 'NotFound', 'no')),
      ),
    );
    await screen.findByRole('heading', { name: 'Sign in' });
    fireEvent.click(screen.getByRole('button', { name: 'Create an account' }));
    // No field cuts what is typed or pasted (a maxlength would, without a word).
    for (const label of ['Email', 'First & last name', 'Choose password'])
      expect(screen.getByLabelText(label).getAttribute('maxlength'), label).toBeNull();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: `${'a'.repeat(65)}@example.org` } });
    fireEvent.change(screen.getByLabelText('First & last name'), { target: { value: 'Ria' } });
    fireEvent.change(screen.getByLabelText('Choose password'), { target: { value: 'stride170' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText(FIELD_TEXTS.emailTooLong)).toBeTruthy();
    expect(signup).not.toHaveBeenCalled();
  });

  it('sign-up’s button says “Sign up”, and a field over its limit keeps the paste and says so', async () => {
    renderApp(
      '/login',
      localServer(() => jsonReply(200, {})),
    );
    await screen.findByRole('heading', { name: 'Sign in' });
    fireEvent.click(screen.getByRole('button', { name: 'Create an account' }));
    expect(screen.getByRole('button', { name: 'Sign up' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    // A 5,000-character paste stays whole in the field, and the limit is named under it at once.
    const name = screen.getByLabelText('First & last name') as HTMLInputElement;
    fireEvent.change(name, { target: { value: 'n'.repeat(FIELD_LIMITS.name) } });
    expect(screen.queryByText(FIELD_TEXTS.nameTooLong)).toBeNull(); // at the limit is fine
    fireEvent.change(name, { target: { value: 'n'.repeat(5000) } });
    expect(name.value).toHaveLength(5000);
    expect(screen.getByText(FIELD_TEXTS.nameTooLong)).toBeTruthy();
    const password = screen.getByLabelText('Choose password');
    fireEvent.change(password, { target: { value: 'p1'.repeat(FIELD_LIMITS.password) } });
    expect(screen.getByText(FIELD_TEXTS.passwordTooLong)).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Ria' } });
    expect(screen.queryByText(FIELD_TEXTS.nameTooLong)).toBeNull();
  });

  it('links the terms of service and the privacy policy (spec §2)', async () => {
    renderApp(
      '/login',
      localServer(() => jsonReply(200, {})),
    );
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe(TERMS_URL);
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(PRIVACY_URL);
  });

  it('never shows a raw validation message from the server', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp(
      '/login',
      localServer(() =>
        errorReply(400, 'ValidationError', 'body: name: Too big: expected string to have <=200 characters'),
      ),
    );
    await screen.findByRole('heading', { name: 'Sign in' });
    fillSignIn('r@example.org', 'stride170');
    expect(await screen.findByText(PLAIN.notAccepted)).toBeTruthy();
    expect(screen.queryByText(/Too big/)).toBeNull();
  });

  it('checks the fields with the widget texts before calling the server', async () => {
    const login = vi.fn(() => jsonReply(200, { data: { user_id: 'u1' } }));
    renderApp('/login', localServer(login));
    await screen.findByRole('heading', { name: 'Sign in' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(AUTH_TEXTS.emailMissing)).toBeTruthy();
    expect(screen.getByText(AUTH_TEXTS.passwordMissing)).toBeTruthy();
    fillSignIn('runner@nowhere', 'x');
    expect(await screen.findByText(AUTH_TEXTS.emailInvalid)).toBeTruthy();
    expect(login).not.toHaveBeenCalled();
  });

  it("shows the server's wrong-password text, and goes to / after a successful sign-in", async () => {
    let attempt = 0;
    const { router } = renderApp(
      '/login',
      localServer(() =>
        ++attempt === 1
          ? errorReply(401, 'WrongPassword', AUTH_TEXTS.wrongPassword)
          : jsonReply(200, { data: { user_id: 'u1' } }),
      ),
    );
    await screen.findByRole('heading', { name: 'Sign in' });
    fillSignIn('r@example.org', 'wrong1');
    expect(await screen.findByText(AUTH_TEXTS.wrongPassword)).toBeTruthy();
    fillSignIn('r@example.org', 'right1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('drives the verification view for an unverified email: SENDING, then SENT; 429 gives TOO_MANY', async () => {
    let mailReply = jsonReply(200, { data: { ok: true } });
    const api = localServer(
      () => errorReply(401, 'ExRestApiAuthEmailNotVerified', 'We need to verify your email address.'),
      (path) => (path === '/api/send_verification' ? mailReply : errorReply(404, 'NotFound', 'no')),
    );
    renderApp('/login', api);
    await screen.findByRole('heading', { name: 'Sign in' });
    fillSignIn('r@example.org', 'right1');
    expect(await screen.findByText(LOGIN_TEXTS.sent)).toBeTruthy();
    expect(screen.getByText(LOGIN_TEXTS.verifyHeading)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: LOGIN_TEXTS.backToLogin }));
    await screen.findByRole('heading', { name: 'Sign in' });
    mailReply = errorReply(429, 'TooManyAttempts', 'Too many');
    fillSignIn('r@example.org', 'right1');
    expect(await screen.findByText(LOGIN_TEXTS.tooMany)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: LOGIN_TEXTS.backToLogin }));
    await screen.findByRole('heading', { name: 'Sign in' });
    mailReply = errorReply(502, 'MailFailed', 'SMTP down');
    fillSignIn('r@example.org', 'right1');
    expect(await screen.findByText(LOGIN_TEXTS.sendFailed)).toBeTruthy();
  });

  it('shows the error view when the reply has no firebase web config, and logs why', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/login', (path) =>
      path === '/api/login_data' ? jsonReply(200, { data: {} }) : errorReply(401, 'Unauthorized', 'No'),
    );
    expect(await screen.findByText(LOGIN_TEXTS.error)).toBeTruthy();
    expect(log).toHaveBeenCalledWith(LOGIN_TEXTS.noWebConfig);
  });

  it('shows the still-loading notice when login data is slow, then the error view when it fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail: (r: Response) => void = () => undefined;
    renderApp('/login', (path) =>
      path === '/api/login_data'
        ? new Promise<Response>((resolve) => (fail = resolve))
        : errorReply(401, 'Unauthorized', 'No'),
    );
    expect(await screen.findByText(LOGIN_TEXTS.stillLoading, {}, { timeout: 3000 })).toBeTruthy();
    fail(errorReply(500, 'InternalError', 'Internal Server Error'));
    expect(await screen.findByText(LOGIN_TEXTS.error)).toBeTruthy();
  });

  it('retries login data 10 s after a failure, then shows the form', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      let calls = 0;
      renderApp('/login', (path) => {
        if (path !== '/api/login_data') return errorReply(401, 'Unauthorized', 'No');
        calls += 1;
        return calls === 1 ? errorReply(503, 'Unavailable', 'down') : jsonReply(200, LOCAL);
      });
      expect(await screen.findByText(LOGIN_TEXTS.error)).toBeTruthy();
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(9_000);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(1_500);
      expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says plainly when sign-up is closed, and offers no sign-up (issue 33)', async () => {
    renderApp('/login', (path) =>
      path === '/api/login_data'
        ? jsonReply(200, {
            data: { ...LOCAL.data, signup: { mode: 'closed', allowed: false, invitation: null } },
          })
        : errorReply(401, 'Unauthorized', 'No'),
    );
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.getByText(SIGNUP_TEXTS.closed)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create an account' })).toBeNull();
  });

  it('opens sign-up with an invitation link, for the invited address, and sends the invitation', async () => {
    const token = 'A'.repeat(43);
    const bodies: unknown[] = [];
    const login = vi.fn();
    renderApp(`/login?invite=${token}`, (path, init) => {
      if (path === '/api/login_data') {
        bodies.push(JSON.parse(String(init?.body)));
        return jsonReply(200, {
          data: {
            ...LOCAL.data,
            signup: {
              mode: 'invite',
              allowed: false,
              invitation: { valid: true, problem: null, email: 'ria@example.org', makes_admin: false },
            },
          },
        });
      }
      if (path === '/api/signup') {
        login(JSON.parse(String(init?.body)));
        return jsonReply(200, { data: { signed_in: false } });
      }
      return errorReply(401, 'Unauthorized', 'No');
    });
    await screen.findByRole('heading', { name: 'Create account' });
    expect(bodies[0]).toMatchObject({ invitation: token });
    expect(
      screen.getByText('You are invited to this Pacebeat: create your account with ria@example.org.'),
    ).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ria@example.org');
    fireEvent.change(screen.getByLabelText('First & last name'), { target: { value: 'Ria' } });
    fireEvent.change(screen.getByLabelText('Choose password'), { target: { value: 'stride170' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(login).toHaveBeenCalled());
    expect(login.mock.calls[0]![0]).toMatchObject({ email: 'ria@example.org', invitation: token });
  });

  it('says why an invitation link does not work', async () => {
    renderApp(`/login?invite=${'B'.repeat(43)}`, (path) =>
      path === '/api/login_data'
        ? jsonReply(200, {
            data: {
              ...LOCAL.data,
              signup: {
                mode: 'invite',
                allowed: false,
                invitation: {
                  valid: false,
                  problem: SIGNUP_TEXTS.invitationExpired,
                  email: null,
                  makes_admin: false,
                },
              },
            },
          })
        : errorReply(401, 'Unauthorized', 'No'),
    );
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.getByText(SIGNUP_TEXTS.invitationExpired)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create an account' })).toBeNull();
  });
});
