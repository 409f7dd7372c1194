// Every process of one installation must seal and open Spotify tokens with the same key. The key lives
// outside the database (TOKEN_ENCRYPTION_KEY, or <DATA_DIR>/secret.key, which each machine would create
// for itself), so the first process records the key's id in PostgreSQL and a process with another key
// refuses to start instead of failing on every token another process sealed.
import { ConfigError } from '../errors.ts';
import type { TokenKeyRepository } from './token-key.repository.ts';

export const TOKEN_KEY_FACT = 'token_key_id';

export async function assertInstallationTokenKey(repo: Pick<TokenKeyRepository, 'claim'>, keyId: string) {
  const inForce = await repo.claim(TOKEN_KEY_FACT, keyId);
  if (inForce !== keyId)
    throw new ConfigError([
      `TOKEN_ENCRYPTION_KEY: this process's token key (id ${keyId}) is not the one the other processes of ` +
        `this database use (id ${inForce}). Give every serve and work process the same TOKEN_ENCRYPTION_KEY ` +
        `(or the same <DATA_DIR>/secret.key).`,
    ]);
}
