/**
 * An end-user id fitted to the target's length limit. Clients send what suits them (Claude
 * Code's `metadata.user_id` runs to about 150 characters), while OpenAI refuses a `user` above
 * 64 characters and Anthropic a `metadata.user_id` above 256. An id that is too long is sent
 * as `u-` and the base64url SHA-256 of the whole id (45 characters): stable, so the
 * upstream's abuse tracking still sees one user as one user, and revealing nothing of the id.
 */
import { createHash } from 'node:crypto';

export const HASHED_USER_ID_PREFIX = 'u-';

export function fitUserId(user: string, maxLength: number): string {
  if (user.length <= maxLength) return user;
  return HASHED_USER_ID_PREFIX + createHash('sha256').update(user).digest('base64url');
}
