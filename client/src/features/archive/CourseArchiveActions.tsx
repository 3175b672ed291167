import type { Course } from '@classwave/shared';
import { Archive, ArchiveRestore, Copy, Repeat } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { useConfirm } from '../../components/ConfirmDialog';
import { useArchiveCourseMutation, useUnarchiveCourseMutation } from './archiveApi';
import { CopyCourseModal } from './CopyCourseModal';
import { ReuseAssignmentModal } from './ReuseAssignmentModal';

/**
 * The course page's archive and copy buttons (DESIGN §20): its teachers copy it and reuse an
 * assignment into it (not while archived); only its owner archives or unarchives it, asked first.
 */
export function CourseArchiveActions({ course, isOwner }: { course: Course; isOwner: boolean }) {
  const archived = course.archivedAt !== null;
  const [archive, { isLoading: archiving }] = useArchiveCourseMutation();
  const [unarchive, { isLoading: unarchiving }] = useUnarchiveCourseMutation();
  const [confirm, confirmDialog] = useConfirm();
  const [copying, setCopying] = useState(false);
  const [reusing, setReusing] = useState(false);

  async function handleArchive() {
    const ok = await confirm({
      title: `Archive “${course.title}”?`,
      description:
        'It becomes read-only and moves to Past classes for you, your co-teachers and your students. Nothing is deleted: work, grades and the stream stay readable, and you can unarchive it at any time.',
      confirmLabel: 'Archive course',
      tone: 'primary',
    });
    if (!ok) return;
    try {
      await archive(course.id).unwrap();
      toast.success('Course archived: it is under Past classes');
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Failed to archive the course.'));
    }
  }

  async function handleUnarchive() {
    try {
      await unarchive(course.id).unwrap();
      toast.success('Course unarchived');
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Failed to unarchive the course.'));
    }
  }

  return (
    <>
      <Button variant="secondary" size="sm" icon={<Copy />} onClick={() => setCopying(true)}>
        Copy course
      </Button>
      {!archived && (
        <Button variant="secondary" size="sm" icon={<Repeat />} onClick={() => setReusing(true)}>
          Reuse assignment
        </Button>
      )}
      {isOwner &&
        (archived ? (
          <Button
            variant="secondary"
            size="sm"
            icon={<ArchiveRestore />}
            loading={unarchiving}
            onClick={() => void handleUnarchive()}
          >
            Unarchive
          </Button>
        ) : (
          <Button
            variant="secondary"
            size="sm"
            icon={<Archive />}
            loading={archiving}
            onClick={() => void handleArchive()}
          >
            Archive
          </Button>
        ))}
      {confirmDialog}
      <CopyCourseModal course={copying ? course : null} onClose={() => setCopying(false)} />
      <ReuseAssignmentModal target={reusing ? course : null} onClose={() => setReusing(false)} />
    </>
  );
}
