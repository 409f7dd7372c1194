import { AUTH_TEXTS, FIELD_TEXTS, REQUEST_TEXTS, TARGET_TEXTS } from '@pacebeat/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from './client.ts';
import { PLAIN, plainMessage } from './plain-message.ts';

describe('plainMessage', () => {
  it('never shows a raw validation message', () => {
    const raw = new ApiError(
      400,
      'ValidationError',
      'body: name: Too big: expected string to have <=200 characters',
    );
    expect(plainMessage(raw)).toBe(PLAIN.notAccepted);
    expect(plainMessage(new ApiError(400, 'FST_ERR_CTP_INVALID_JSON_BODY', 'Body is not valid JSON'))).toBe(
      PLAIN.notAccepted,
    );
  });

  it('keeps the plain texts a 400 carries, without the field paths', () => {
    const error = new ApiError(
      400,
      'ValidationError',
      `body: email: ${FIELD_TEXTS.emailTooLong}; password: ${AUTH_TEXTS.passwordMissing}`,
    );
    expect(plainMessage(error)).toBe(`${AUTH_TEXTS.passwordMissing}. ${FIELD_TEXTS.emailTooLong}`);
  });

  it('keeps the pace and address texts, as sentences', () => {
    const error = new ApiError(
      400,
      'ValidationError',
      `${TARGET_TEXTS.nameControl} ${TARGET_TEXTS.rangeOrder}`,
    );
    expect(plainMessage(error)).toBe(`${TARGET_TEXTS.nameControl} ${TARGET_TEXTS.rangeOrder}`);
    expect(plainMessage(new ApiError(400, 'ValidationError', REQUEST_TEXTS.badAddress))).toBe(
      REQUEST_TEXTS.badAddress,
    );
  });

  it('passes our own 4xx messages, and hides 5xx, broken replies and network details', () => {
    expect(plainMessage(new ApiError(409, 'Conflict', 'Already connected elsewhere.'))).toBe(
      'Already connected elsewhere.',
    );
    expect(plainMessage(new ApiError(500, 'InternalError', 'Internal Server Error'))).toBe(
      PLAIN.serverFailed,
    );
    expect(plainMessage(new ApiError(200, 'InvalidReply', 'GET x: the reply does not match'))).toBe(
      PLAIN.serverFailed,
    );
    expect(plainMessage(new ApiError(0, 'NetworkError', 'Failed to fetch'))).toBe(PLAIN.network);
    expect(plainMessage(new TypeError('x'))).toBe(PLAIN.serverFailed);
  });
});
