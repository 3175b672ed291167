import type { Course } from '@classwave/shared';
import { Copy, Maximize2, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { useConfirm } from '../../components/ConfirmDialog';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Switch } from '../../components/Switch';
import { useChangeJoinCodeMutation } from './classesApi';
import { PresentOverlay } from './PresentOverlay';
import './JoinCodePanel.css';

export const RESET_CODE_CONFIRMATION =
  'The current code and link stop working at once; students who already joined stay in the class.';

/**
 * The class code on the teacher's course page (DESIGN §11): copy it, present it full screen with a QR
 * code, reset it (the old one stops at once), and turn joining off or on.
 */
export function JoinCodePanel({ course }: { course: Course & { joinCode: string } }) {
  const [presenting, setPresenting] = useState(false);
  const [change, { isLoading, originalArgs }] = useChangeJoinCodeMutation();
  const [confirm, dialog] = useConfirm();
  const busy = (action: string) => isLoading && originalArgs?.action === action;

  async function handleCopy() {
    try {
      await navigator.clipboard.writeText(course.joinCode);
      toast.success(`Class code ${course.joinCode} copied`);
    } catch {
      toast.error('Could not copy. Select the code and copy it yourself.');
    }
  }

  async function run(action: 'reset' | 'disable' | 'enable') {
    try {
      const state = await change({ courseId: course.id, action }).unwrap();
      if (action === 'reset') toast.success(`New class code: ${state.joinCode}`);
      else toast.success(state.joinEnabled ? 'Students can join again' : 'Joining is turned off');
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Could not change the class code'));
    }
  }

  async function handleReset() {
    const sure = await confirm({
      title: 'Reset the class code?',
      description: RESET_CODE_CONFIRMATION,
      confirmLabel: 'Reset code',
    });
    if (sure) void run('reset');
  }

  return (
    <Card as="section" aria-labelledby="class-code-title" className="join-code-panel">
      <h2 id="class-code-title" className="course-detail__section-title">
        Class code
      </h2>
      <p
        className={`join-code-panel__code${course.joinEnabled ? '' : ' join-code-panel__code--off'}`}
        data-testid="join-code"
      >
        {course.joinCode}
      </p>
      <p className="join-code-panel__hint">
        {course.joinEnabled
          ? 'Students join with this code, or with the link in Present.'
          : 'Joining is off: the code is refused until you turn it on.'}
      </p>
      <div className="join-code-panel__buttons">
        <Button variant="secondary" size="sm" icon={<Copy />} onClick={() => void handleCopy()}>
          Copy
        </Button>
        <Button variant="secondary" size="sm" icon={<Maximize2 />} onClick={() => setPresenting(true)}>
          Present
        </Button>
        <Button
          variant="secondary"
          size="sm"
          icon={<RefreshCw />}
          loading={busy('reset')}
          onClick={() => void handleReset()}
        >
          Reset
        </Button>
      </div>
      <Switch
        checked={course.joinEnabled}
        busy={busy('enable') || busy('disable')}
        label="Students can join"
        onChange={(on) => void run(on ? 'enable' : 'disable')}
      />
      {presenting && (
        <PresentOverlay
          title={course.title}
          joinCode={course.joinCode}
          joinEnabled={course.joinEnabled}
          onClose={() => setPresenting(false)}
        />
      )}
      {dialog}
    </Card>
  );
}
