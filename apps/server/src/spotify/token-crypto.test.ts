import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTokenCipher, loadOrCreateKey, parseKey } from './token-crypto.ts';

describe('token cipher', () => {
  const cipher = createTokenCipher(randomBytes(32));

  it('round-trips, and never stores the plain text', () => {
    const sealed = cipher.encrypt('AQD-refresh-token', 'user-1');
    expect(sealed).not.toContain('AQD-refresh-token');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(cipher.decrypt(sealed, 'user-1')).toBe('AQD-refresh-token');
    expect(cipher.encrypt('AQD-refresh-token', 'user-1')).not.toBe(sealed); // fresh IV each time
  });

  it('refuses another context, another key, and tampering', () => {
    const sealed = cipher.encrypt('secret', 'user-1');
    expect(() => cipher.decrypt(sealed, 'user-2')).toThrow();
    expect(() => createTokenCipher(randomBytes(32)).decrypt(sealed, 'user-1')).toThrow();
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3]!, 'base64url');
    data[0] = data[0]! ^ 1;
    parts[3] = data.toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'), 'user-1')).toThrow();
    expect(() => cipher.decrypt('plain', 'user-1')).toThrow('not an encrypted token');
  });
});

describe('key', () => {
  it('parses hex and base64 keys, and refuses other lengths', () => {
    const key = randomBytes(32);
    expect(parseKey(key.toString('hex')).equals(key)).toBe(true);
    expect(parseKey(key.toString('base64')).equals(key)).toBe(true);
    expect(() => parseKey(randomBytes(16).toString('base64'))).toThrow('32 bytes');
  });

  it('creates <dataDir>/secret.key with mode 0600 once, and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pacebeat-key-'));
    try {
      const first = loadOrCreateKey({ setting: undefined, dataDir: dir });
      const file = path.join(dir, 'secret.key');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(loadOrCreateKey({ setting: undefined, dataDir: dir }).equals(first)).toBe(true);
      fs.chmodSync(file, 0o644);
      expect(() => loadOrCreateKey({ setting: undefined, dataDir: dir })).toThrow('chmod 600');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prefers the setting over the key file', () => {
    const key = randomBytes(32);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pacebeat-key-'));
    try {
      expect(loadOrCreateKey({ setting: key.toString('hex'), dataDir: dir }).equals(key)).toBe(true);
      expect(fs.existsSync(path.join(dir, 'secret.key'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
