// The accounts feature's server calls (spec §7 and the local-account extras): every page and component
// that signs in, signs up, logs out or pings goes through these, so a path or a reply type is written once.
import type {
  LoginDataReply,
  LoginReply,
  OkReply,
  PingReply,
  SignupReply,
  WhoamiReply,
} from '@pacebeat/contract';
import { typed, type ApiClient } from '../api/client.ts';

/** The time zone the server formats a runner's times in. */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export const accountCalls = (api: ApiClient) => ({
  loginData: () => api.post('login_data', { kinds: ['firebase', 'local'] }, typed<LoginDataReply>()),
  whoami: () => api.get('whoami', typed<WhoamiReply>()),
  loginWithFirebase: (token: string) =>
    api.post('login', { provider: 'firebase', token, time_zone: timeZone() }, typed<LoginReply>()),
  loginLocal: (email: string, password: string) =>
    api.post('login', { provider: 'local', email, password, time_zone: timeZone() }, typed<LoginReply>()),
  signup: (email: string, name: string, password: string) =>
    api.post('signup', { email, name, password, time_zone: timeZone() }, typed<SignupReply>()),
  sendVerification: (email: string, password: string) =>
    api.post('send_verification', { email, password }, typed<OkReply>()),
  verifyEmail: (code: string) => api.post('verify_email', { code }, typed<OkReply>()),
  passwordReset: (email: string) => api.post('password_reset', { email }, typed<OkReply>()),
  confirmPasswordReset: (code: string, password: string) =>
    api.post('password_reset/confirm', { code, password }, typed<OkReply>()),
  logout: () => api.get('logout', typed<OkReply>()),
  ping: () => api.get('ping', typed<PingReply>()),
});
