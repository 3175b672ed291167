import { useEffect } from 'react';
import { toast } from 'sonner';

/**
 * Toasts `message` once each time `error` becomes set (a failed load); with `log`, also writes the
 * error to the console. The toast id is the message, so re-renders cannot stack duplicates.
 */
export function useErrorToast(
  error: unknown,
  message: string,
  { log = false }: { log?: boolean } = {},
): void {
  useEffect(() => {
    if (error == null) return;
    if (log) console.error(message, error);
    toast.error(message, { id: message });
  }, [error, message, log]);
}
