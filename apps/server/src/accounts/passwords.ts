import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) with OWASP's second recommended setting: 19 MiB, 2 passes.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTIONS);
export const verifyPassword = (passwordHash: string, password: string) => verify(passwordHash, password);

/** A hash of a random password, verified against when the account does not exist, so both cases cost the same. */
export const DUMMY_HASH_PROMISE = hash('not a real password 0', OPTIONS);
