// Spotify tokens are encrypted at rest with AES-256-GCM. The key comes from TOKEN_ENCRYPTION_KEY, or from
// `<DATA_DIR>/secret.key`, created with mode 0600 on first start (STYLE.md §11: secrets never get defaults).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface TokenCipher {
  /** `v1.<iv>.<tag>.<ciphertext>` in base64url; `context` (e.g. the user id) is bound as associated data. */
  encrypt(plain: string, context: string): string;
  /** Throws when the text was not made by this key for this context. */
  decrypt(sealed: string, context: string): string;
}

export function createTokenCipher(key: Buffer): TokenCipher {
  if (key.length !== 32) throw new Error('token encryption key must be 32 bytes');
  return {
    encrypt(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64url'), tag.toString('base64url'), data.toString('base64url')].join(
        '.',
      );
    },
    decrypt(sealed, context) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== VERSION || iv === undefined || tag === undefined || data === undefined) {
        throw new Error('not an encrypted token');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

/** Parses TOKEN_ENCRYPTION_KEY (64 hex digits or base64 of 32 bytes). */
export function parseKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('token encryption key must be 32 bytes');
  return key;
}

/**
 * The key from the setting, else from `<dataDir>/secret.key`, which is created (mode 0600, 32 random bytes
 * as hex) when missing. An existing key file readable by others is refused.
 */
export function loadOrCreateKey(opts: { setting: string | undefined; dataDir: string }): Buffer {
  if (opts.setting) return parseKey(opts.setting);
  const file = path.join(opts.dataDir, 'secret.key');
  fs.mkdirSync(opts.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const mode = fs.statSync(file).mode & 0o777;
  if (mode & 0o077) {
    throw new Error(`${file} is readable by other users (mode ${mode.toString(8)}); run: chmod 600 ${file}`);
  }
  return parseKey(fs.readFileSync(file, 'utf8').trim());
}

/** The key in use, if there is one (the setting, else the key file), without creating it (backups). */
export function findKey(opts: { setting: string | undefined; dataDir: string }): Buffer | null {
  if (opts.setting) return parseKey(opts.setting);
  try {
    return parseKey(fs.readFileSync(path.join(opts.dataDir, 'secret.key'), 'utf8').trim());
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** A short name of a key that tells two keys apart and reveals nothing of either (a backup records it). */
export function keyId(key: Buffer): string {
  return createHash('sha256').update('pacebeat token key id\0').update(key).digest('hex').slice(0, 16);
}
