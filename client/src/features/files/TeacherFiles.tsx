import type { FilePurpose } from '@classwave/shared';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { useAppDispatch } from '../../app/hooks';
import { AttachFilesButton } from './AttachFilesButton';
import { FileList } from './FileList';
import { refetchAssignmentFiles, useGetAssignmentFilesQuery, useRemoveFileMutation } from './filesApi';
import { uploadTeacherFiles } from './teacherUpload';
import { useUploadAuth } from './useUploadAuth';
import './attachments.css';

interface Moving {
  key: string;
  name: string;
  percent: number;
}

/**
 * A teacher's files on an assignment (DESIGN §18): its materials, or their feedback files on one
 * student's work. Uploaded at once (a teacher attaches them while online), listed as the server
 * has them, each removable while the assignment is theirs to change.
 */
export function TeacherFiles({
  assignmentId,
  purpose,
  studentId,
  title,
}: {
  assignmentId: string;
  purpose: Extract<FilePurpose, 'assignment' | 'feedback'>;
  studentId?: string;
  title: string;
}) {
  const dispatch = useAppDispatch();
  const auth = useUploadAuth();
  const headingId = useId();
  const [moving, setMoving] = useState<Moving[]>([]);
  const { data } = useGetAssignmentFilesQuery(
    purpose === 'feedback' ? { assignmentId, studentId } : { assignmentId },
  );
  const [removeFile] = useRemoveFileMutation();
  const files = (purpose === 'feedback' ? data?.feedback : data?.materials) ?? [];

  function upload(chosen: File[]) {
    uploadTeacherFiles(chosen, { purpose, assignmentId, studentId }, auth, {
      started: (key, file) => setMoving((list) => [...list, { key, name: file.name, percent: 0 }]),
      progress: (key, percent) =>
        setMoving((list) => list.map((m) => (m.key === key ? { ...m, percent } : m))),
      done: (key, stored) => {
        setMoving((list) => list.filter((m) => m.key !== key));
        if (stored) dispatch(refetchAssignmentFiles(assignmentId));
      },
    });
  }

  return (
    <section className="attachments" aria-labelledby={headingId}>
      <div className="attachments__head">
        <h3 id={headingId} className="attachments__title">
          {title}
        </h3>
        <AttachFilesButton label={`Attach files to ${title.toLowerCase()}`} onChosen={upload} />
      </div>
      {moving.map((m) => (
        <p key={m.key} className="attachments__moving" role="status">
          Uploading {m.name}: {m.percent} %
        </p>
      ))}
      <FileList
        files={files}
        label={title}
        onRemove={(file) =>
          void removeFile({ id: file.id, assignmentId })
            .unwrap()
            .catch(() => toast.error(`${file.name} could not be removed.`))
        }
      />
    </section>
  );
}
