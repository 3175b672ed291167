import { useState } from 'react';
import { useAppSelector } from '../app/hooks';
import { selectAuthStatus } from '../features/auth/authSlice';
import { selectConnection } from './connectionSlice';
import './ConnectionIndicator.css';

const LABELS = {
  connecting: 'Connecting',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  offline: 'Offline — your work is kept on this device',
  signedOut: 'Signed out — sign in to reconnect',
} as const;

/**
 * The connection state on every signed-in page (DESIGN §12): a small quiet dot while live, a
 * short label when reconnecting, offline or signed out by an expired session, announced politely
 * when it changes. A page load says nothing: the first connection is not news, only a recovery
 * from a lost one ("Live" after "Reconnecting…") is.
 */
export function ConnectionIndicator() {
  const connection = useAppSelector(selectConnection);
  const expired = useAppSelector(selectAuthStatus) === 'expired';
  const state = expired ? 'signedOut' : connection;
  const [troubled, setTroubled] = useState(false);
  if (!troubled && state !== 'live' && state !== 'connecting') setTroubled(true);
  const quiet = state === 'connecting' || state === 'live';
  const spoken = state === 'connecting' || (state === 'live' && !troubled) ? '' : LABELS[state];
  return (
    <div
      className={`connection connection--${state}`}
      role="status"
      aria-live="polite"
      data-testid="connection-state"
      data-state={state}
      title={LABELS[state]}
    >
      <span className="connection__dot" aria-hidden="true" />
      <span className={quiet ? 'sr-only' : 'connection__label'}>{spoken}</span>
    </div>
  );
}
