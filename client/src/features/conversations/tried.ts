import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';

/**
 * Runs a write (an RTK Query mutation's `unwrap()`); a refusal is toasted with the server's own
 * message (comments off, muted, 429 with its wait…), `failure` when it sent none. Answers whether
 * the write went through, so a composer keeps its text when it did not.
 */
export async function tried(write: Promise<unknown>, failure: string): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    toast.error(apiErrorMessage(error, failure));
    return false;
  }
}
