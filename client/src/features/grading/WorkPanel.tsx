import { PANEL_STATES, type PanelState } from '@classwave/shared';
import { useState } from 'react';
import { usePanelWatch } from '../../realtime/presence';
import { UploadsInProgress } from '../files/UploadsInProgress';
import { useGetPanelQuery } from './gradingApi';
import './grading.css';

export const PANEL_LABELS: Record<PanelState, string> = {
  not_opened: 'Not opened',
  viewing: 'Viewing now',
  writing: 'Writing',
  submitted: 'Submitted',
  late: 'Late',
  missing: 'Missing',
};

/** A count's names, behind its label; only rendered once opened, so the dialog names each student once. */
function Names({ label, names }: { label: string; names: string[] }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{label}</summary>
      {open && (
        <ul className="work-panel__names">
          {names.map((name, index) => (
            <li key={`${name}-${index}`}>{name}</li>
          ))}
        </ul>
      )}
    </details>
  );
}

/**
 * Who is where on one assignment, live (DESIGN §13): loaded once, then kept current by
 * `assignment:panel` events written into the same cache, which the server sends while the tab
 * watches the panel (read again each time the watch starts).
 */
export function WorkPanel({ assignmentId }: { assignmentId: string }) {
  const { data, refetch } = useGetPanelQuery(assignmentId);
  usePanelWatch(assignmentId, refetch);
  if (!data) return null;
  return (
    <section className="work-panel" aria-label="Who is working on it">
      <ul className="work-panel__counts">
        {PANEL_STATES.map((state) => {
          const names = data.students.filter((s) => s.state === state).map((s) => s.fullName);
          return (
            <li key={state} className={`work-panel__count work-panel__count--${state}`} data-state={state}>
              <span className="work-panel__number">{data.counts[state]}</span>
              {names.length > 0 ? (
                <Names label={PANEL_LABELS[state]} names={names} />
              ) : (
                <span>{PANEL_LABELS[state]}</span>
              )}
            </li>
          );
        })}
      </ul>
      <UploadsInProgress assignmentId={assignmentId} />
    </section>
  );
}
