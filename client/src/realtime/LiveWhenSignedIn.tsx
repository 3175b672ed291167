import { lazy, Suspense } from 'react';
import { useAppSelector } from '../app/hooks';
import { selectAuthStatus } from '../features/auth/authSlice';

// socket.io-client and the live-event code are a chunk of their own: a signed-out visitor never loads them.
const LiveSync = lazy(async () => ({ default: (await import('./LiveSync')).LiveSync }));

/** Mounts the live connection only while signed in (unmounting it closes the socket). */
export function LiveWhenSignedIn() {
  const signedIn = useAppSelector(selectAuthStatus) === 'signedIn';
  if (!signedIn) return null;
  return (
    <Suspense fallback={null}>
      <LiveSync />
    </Suspense>
  );
}
