import { useEffect, useState } from 'react';
import { onServerClockChange, serverNow } from '../../api/serverClock';

/**
 * The current time by the server's clock (DESIGN §13), refreshed every `intervalMs` and whenever the
 * estimate of that clock moves, so an assignment turns overdue on screen when the server says it
 * is, whatever the device's clock says.
 */
export function useNow(intervalMs = 60_000): Date {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const tick = () => setNow(serverNow());
    const timer = window.setInterval(tick, intervalMs);
    const unsubscribe = onServerClockChange(tick);
    // The estimate may have moved between the first render and this effect.
    tick();
    return () => {
      window.clearInterval(timer);
      unsubscribe();
    };
  }, [intervalMs]);
  return now;
}
