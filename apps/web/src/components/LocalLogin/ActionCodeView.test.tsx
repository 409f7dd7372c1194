import { fireEvent, screen, waitFor } from '@testing-library/react';
import { AUTH_TEXTS } from '@pacebeat/contract';
import { describe, expect, it } from 'vitest';
import { errorReply, jsonReply, renderApp } from '../../test/render-app.tsx';

describe('the links of the mails on /login', () => {
  it('verifies the email with the code of the link', async () => {
    const bodies: unknown[] = [];
    renderApp('/login?mode=verifyEmail&code=abc123', (path, init) => {
      if (path === '/api/verify_email') {
        bodies.push(JSON.parse(String(init?.body)));
        return jsonReply(200, { data: { ok: true } });
      }
      return errorReply(401, 'Unauthorized', 'No');
    });
    expect(await screen.findByText(/Your email has been verified/)).toBeTruthy();
    expect(bodies).toEqual([{ code: 'abc123' }]);
  });

  it("shows the server's text for a used code", async () => {
    renderApp('/login?mode=verifyEmail&code=used', (path) =>
      path === '/api/verify_email'
        ? errorReply(400, 'InvalidActionCode', AUTH_TEXTS.invalidActionCode)
        : errorReply(401, 'Unauthorized', 'No'),
    );
    expect(await screen.findByText(AUTH_TEXTS.invalidActionCode)).toBeTruthy();
  });

  it('sets a new password with the reset code, after the strength check', async () => {
    const bodies: unknown[] = [];
    renderApp('/login?mode=resetPassword&code=r1', (path, init) => {
      if (path === '/api/password_reset/confirm') {
        bodies.push(JSON.parse(String(init?.body)));
        return jsonReply(200, { data: { ok: true } });
      }
      return errorReply(401, 'Unauthorized', 'No');
    });
    const field = await screen.findByLabelText('New password');
    fireEvent.change(field, { target: { value: 'abcdef' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(AUTH_TEXTS.weakPassword)).toBeTruthy();
    fireEvent.change(field, { target: { value: 'cadence180' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Password changed/)).toBeTruthy();
    await waitFor(() => expect(bodies).toEqual([{ code: 'r1', password: 'cadence180' }]));
  });
});
