import type { Course } from '@classwave/shared';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { FormModal } from '../../components/FormModal';
import { Select } from '../../components/Select';
import { useGetCourseQuery, useGetCoursesQuery } from '../courses/coursesApi';
import { useCopyAssignmentMutation, useGetPastCoursesQuery } from './archiveApi';

/**
 * Reuse assignment (DESIGN §20): pick one of another course you teach (a current or a past one) and
 * copy it into this course, with its rubric and materials; its category by name, if this course has one.
 */
export function ReuseAssignmentModal({ target, onClose }: { target: Course | null; onClose: () => void }) {
  return target ? <ReuseForm key={target.id} target={target} onClose={onClose} /> : null;
}

function ReuseForm({ target, onClose }: { target: Course; onClose: () => void }) {
  const { data: current = [] } = useGetCoursesQuery();
  const { data: past = [] } = useGetPastCoursesQuery();
  const sources = [...current, ...past].filter((c) => c.id !== target.id);
  const [sourceId, setSourceId] = useState('');
  const [assignmentId, setAssignmentId] = useState('');
  const { data: source, isFetching } = useGetCourseQuery(sourceId, { skip: sourceId === '' });
  const [copyAssignment, { isLoading }] = useCopyAssignmentMutation();
  const courseField = useId();
  const assignmentField = useId();
  const assignments = sourceId === '' ? [] : (source?.assignments ?? []);

  async function handleSubmit() {
    if (assignmentId === '') return;
    try {
      const copy = await copyAssignment({ assignmentId, body: { courseId: target.id } }).unwrap();
      toast.success(`“${copy.title}” added to ${target.title}`);
      onClose();
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Failed to reuse the assignment.'));
    }
  }

  return (
    <FormModal
      open
      onClose={onClose}
      title="Reuse assignment"
      description={`Copy an assignment of another course you teach into ${target.title}, with its rubric and materials. A due date that has passed moves to a week from now.`}
      submitLabel="Reuse assignment"
      submitting={isLoading}
      submitDisabled={assignmentId === ''}
      onSubmit={handleSubmit}
    >
      <Select
        id={courseField}
        label="From course"
        value={sourceId}
        onChange={(event) => {
          setSourceId(event.target.value);
          setAssignmentId('');
        }}
        hint={sources.length === 0 ? 'You teach no other course yet.' : undefined}
      >
        <option value="">Choose a course…</option>
        {sources.map((c) => (
          <option key={c.id} value={c.id}>
            {c.archivedAt ? `${c.title} (archived)` : c.title}
          </option>
        ))}
      </Select>
      <Select
        id={assignmentField}
        label="Assignment"
        value={assignmentId}
        disabled={sourceId === '' || isFetching}
        onChange={(event) => setAssignmentId(event.target.value)}
        hint={
          sourceId !== '' && !isFetching && assignments.length === 0
            ? 'That course has no assignments.'
            : undefined
        }
      >
        <option value="">{isFetching ? 'Loading…' : 'Choose an assignment…'}</option>
        {assignments.map((a) => (
          <option key={a.id} value={a.id}>
            {a.title}
          </option>
        ))}
      </Select>
    </FormModal>
  );
}
