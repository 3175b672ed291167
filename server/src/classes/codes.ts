import { randomInt } from 'node:crypto';
import { JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH } from '@classwave/shared';
import { PG, pgCode } from '../db/errors.js';

/** A fresh join code: 8 characters drawn uniformly from the alphabet with a CSPRNG (30^8 ≈ 6.6·10^11). */
export function randomJoinCode(): string {
  let code = '';
  for (let i = 0; i < JOIN_CODE_LENGTH; i++) code += JOIN_CODE_ALPHABET[randomInt(JOIN_CODE_ALPHABET.length)];
  return code;
}

const COLLISION_RETRIES = 5;

/**
 * Runs `work` (a whole transaction that stores fresh codes) again when a code collided with an
 * existing one. A collision aborts the transaction, so the retry is of the transaction, not the insert.
 */
export async function retryOnCodeCollision<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= COLLISION_RETRIES || !isCodeCollision(error)) throw error;
    }
  }
}

function isCodeCollision(error: unknown): boolean {
  if (pgCode(error) !== PG.uniqueViolation) return false;
  const e = error as { constraint?: unknown; cause?: { constraint?: unknown } };
  return (e.constraint ?? e.cause?.constraint) === 'courses_join_code_key';
}
