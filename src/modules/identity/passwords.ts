import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/**
 * OWASP's current minimum for scrypt: N=2^17, r=8, p=1. One hash takes 128·N·r = 128 MiB and about a
 * third of a second of one libuv thread (measured in decisions.md). Hashes are self-describing
 * (`scrypt$N$r$p$salt$key`), so hashes of an older, cheaper cost still verify and are upgraded at the
 * next successful sign-in.
 */
export const SCRYPT_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
/** Node refuses a derivation needing more than maxmem (default 32 MiB): room for the cost above, twice over. */
const maxMemory = (cost: ScryptCost) => 2 * 128 * cost.N * cost.r + 1024 * 1024;

export interface PasswordCheck {
  matches: boolean;
  /** The stored hash is of a lower cost than the current one: store a fresh hash now that the password is known. */
  upgrade: boolean;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string | null): Promise<PasswordCheck>;
}

/**
 * The service always uses SCRYPT_COST. A cheaper cost exists for one reason: test suites, which pass
 * it explicitly (AppDeps.passwordCost); no configuration variable reaches it.
 */
export function createPasswordHasher(cost: ScryptCost = SCRYPT_COST): PasswordHasher {
  async function hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await scrypt(password, salt, KEY_LENGTH, { ...cost, maxmem: maxMemory(cost) });
    return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64')}$${key.toString('base64')}`;
  }

  async function verify(password: string, stored: string | null): Promise<PasswordCheck> {
    const parsed = stored === null ? null : parseHash(stored);
    if (parsed === null) {
      // Spend the same time as a real check, so that unknown accounts cannot be told apart by timing.
      await hash(password);
      return { matches: false, upgrade: false };
    }
    const actual = await scrypt(password, parsed.salt, parsed.key.length, { ...parsed.cost, maxmem: maxMemory(parsed.cost) });
    const matches = timingSafeEqual(actual, parsed.key);
    const weaker = parsed.cost.N < cost.N || parsed.cost.r < cost.r || parsed.cost.p < cost.p;
    return { matches, upgrade: matches && weaker };
  }

  return { hash, verify };
}

/** Costs above these are not ours: refused rather than allowed to take a gigabyte of memory. */
const MAX_N = 2 ** 20;

function parseHash(stored: string): { cost: ScryptCost; salt: Buffer; key: Buffer } | null {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || key === undefined) return null;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (![cost.N, cost.r, cost.p].every(Number.isInteger) || cost.N < 2 || cost.N > MAX_N || cost.r < 1 || cost.r > 32 || cost.p < 1 || cost.p > 16) {
    return null;
  }
  return { cost, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
}

const standard = createPasswordHasher();

/** A hash at the service's cost (bootstrap super admin, the demo). */
export const hashPassword = (password: string): Promise<string> => standard.hash(password);
