import { AUTH_TEXTS, FIELD_TEXTS, REQUEST_TEXTS, RUN_TEXTS, TARGET_TEXTS } from '@pacebeat/contract/rules';
import { isApiError } from './client.ts';

/** Texts written for people that a 400 may carry (the contract's); any other 400 text is for developers. */
const PLAIN_TEXTS: readonly string[] = [
  ...Object.values(AUTH_TEXTS),
  ...Object.values(FIELD_TEXTS),
  ...Object.values(TARGET_TEXTS),
  ...Object.values(RUN_TEXTS),
  ...Object.values(REQUEST_TEXTS),
];

export const PLAIN = {
  network: 'A network error has occurred',
  notAccepted: 'Something you entered was not accepted. Please check it and try again.',
  serverFailed: 'Something went wrong on our side. Please try again in a moment.',
} as const;

/**
 * What to tell a person about a failed call: never a raw validation message ("body: name: Too big…").
 * A 400 shows the plain texts it contains, else a general sentence; our other 4xx messages are plain
 * already; 5xx and broken replies get one sentence, their detail goes to the console.
 */
export function plainMessage(error: unknown): string {
  if (!isApiError(error)) return PLAIN.serverFailed;
  if (error.status === 0) return PLAIN.network;
  if (error.status === 400 && (error.code === 'ValidationError' || error.code.startsWith('FST_'))) {
    const found = PLAIN_TEXTS.filter((text) => error.message.includes(text));
    if (found.length === 0) return PLAIN.notAccepted;
    return found.reduce((all, text) => `${all}${/[.!?]$/.test(all) ? '' : '.'} ${text}`);
  }
  if (error.status >= 500 || error.code === 'HttpError' || error.code === 'InvalidReply') {
    return PLAIN.serverFailed;
  }
  return error.message;
}
