import { normalizeJoinCode } from '@classwave/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { FormModal } from '../../components/FormModal';
import { Input } from '../../components/Input';
import { useJoinCourseMutation } from './classesApi';
import { joinErrorMessage, MALFORMED_CODE } from './joinErrors';

/** The router state a link sends to open "Join a class" on the Courses page on arrival. */
export const OPEN_JOIN_CLASS = 'openJoinClass';

/**
 * "Join a class": the student types the code their teacher shows (any case, with or without the
 * dash) and lands on the course. Wrong codes, joining turned off and too many tries are explained
 * under the field, in the server's words.
 */
export function JoinClassDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [joinCourse, { isLoading }] = useJoinCourseMutation();
  const navigate = useNavigate();

  function close() {
    setCode('');
    setError(null);
    onClose();
  }

  async function handleSubmit() {
    const normalized = normalizeJoinCode(code);
    if (!normalized) {
      setError(MALFORMED_CODE);
      return;
    }
    setError(null);
    try {
      const { course } = await joinCourse({ code: normalized }).unwrap();
      toast.success(`You joined ${course.title}`);
      close();
      await navigate(`/courses/${course.id}`);
    } catch (failure) {
      setError(joinErrorMessage(failure));
    }
  }

  return (
    <FormModal
      open={open}
      onClose={close}
      title="Join a class"
      description="Enter the class code your teacher gave you."
      submitLabel="Join"
      submitting={isLoading}
      onSubmit={handleSubmit}
      size="sm"
    >
      <Input
        label="Class code"
        name="joinCode"
        placeholder="ABCD-EFGH"
        required
        maxLength={32}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        className="join-code-input"
        // role="alert" so the reason is read out as soon as it appears.
        error={error && <span role="alert">{error}</span>}
        value={code}
        onChange={(event) => {
          setCode(event.target.value);
          setError(null);
        }}
      />
    </FormModal>
  );
}
