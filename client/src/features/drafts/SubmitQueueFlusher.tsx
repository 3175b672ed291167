import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { selectConnection } from '../../realtime/connectionSlice';
import { selectAuthStatus, selectProfile } from '../auth/authSlice';
import { cancelRetries, flushQueuedSubmits } from './submitQueue';

/**
 * Sends the submits a student pressed while offline (DESIGN §12): when the app starts, each time
 * the connection is back and after signing in again, whatever page is open. A busy server's
 * answer is retried by the queue itself (back-off, Retry-After). Renders nothing.
 */
export function SubmitQueueFlusher() {
  const dispatch = useAppDispatch();
  const profile = useAppSelector(selectProfile);
  const signedIn = useAppSelector(selectAuthStatus) === 'signedIn';
  const connection = useAppSelector(selectConnection);
  const studentId = signedIn && profile?.role === 'student' ? profile.id : null;

  useEffect(() => {
    if (studentId && connection !== 'offline') void flushQueuedSubmits(dispatch, studentId);
  }, [dispatch, studentId, connection]);

  // Signed out or expired: nothing is sent until someone signs in again.
  useEffect(() => {
    if (studentId) return cancelRetries;
  }, [studentId]);

  return null;
}
