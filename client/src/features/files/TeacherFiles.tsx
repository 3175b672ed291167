import type { FilePurpose } from '@classwave/shared';
import { Paperclip } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { refreshSession } from '../../api/refreshSession';
import { useAppDispatch, useAppStore } from '../../app/hooks';
import { Button } from '../../components/Button';
import { selectAccessToken, tokenRefreshed } from '../auth/authSlice';
import { ACCEPTED_FILES } from './AttachmentsField';
import { FileList } from './FileList';
import { refetchAssignmentFiles, useGetAssignmentFilesQuery, useRemoveFileMutation } from './filesApi';
import { startUpload } from './upload';
import { MAX_ATTACHMENT_BYTES } from './useAttachments';
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
  const store = useAppStore();
  const dispatch = useAppDispatch();
  const input = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const [moving, setMoving] = useState<Moving[]>([]);
  const { data } = useGetAssignmentFilesQuery(
    purpose === 'feedback' ? { assignmentId, studentId } : { assignmentId },
  );
  const [removeFile] = useRemoveFileMutation();
  const files = (purpose === 'feedback' ? data?.feedback : data?.materials) ?? [];

  function upload(file: File) {
    const key = crypto.randomUUID();
    setMoving((list) => [...list, { key, name: file.name, percent: 0 }]);
    const gone = () => setMoving((list) => list.filter((m) => m.key !== key));
    startUpload(
      file,
      {
        uploadUrl: null,
        metadata: {
          purpose,
          targetId: assignmentId,
          name: file.name,
          ...(purpose === 'feedback' && studentId ? { studentId } : {}),
        },
      },
      {
        token: () => selectAccessToken(store.getState()),
        refresh: () =>
          void refreshSession().then((result) => {
            if (result.ok) dispatch(tokenRefreshed(result.session));
          }),
        onUrl: () => {},
        onProgress: (sent, total) =>
          setMoving((list) =>
            list.map((m) =>
              m.key === key ? { ...m, percent: total > 0 ? Math.floor((sent / total) * 100) : 0 } : m,
            ),
          ),
        onStored: () => {
          gone();
          dispatch(refetchAssignmentFiles(assignmentId));
        },
        onFailed: (failure) => {
          gone();
          toast.error(
            failure.kind === 'refused'
              ? `${file.name}: ${failure.message}`
              : `${file.name} could not be uploaded: check the connection and attach it again.`,
          );
        },
      },
    );
  }

  return (
    <section className="attachments" aria-labelledby={headingId}>
      <div className="attachments__head">
        <h3 id={headingId} className="attachments__title">
          {title}
        </h3>
        <Button variant="secondary" size="sm" icon={<Paperclip />} onClick={() => input.current?.click()}>
          Attach files
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPTED_FILES}
          className="sr-only"
          tabIndex={-1}
          aria-label={`Attach files to ${title.toLowerCase()}`}
          onChange={(event) => {
            const chosen = [...(event.target.files ?? [])];
            event.target.value = '';
            for (const file of chosen) {
              if (file.size > MAX_ATTACHMENT_BYTES) toast.error(`${file.name}: over 50 MB, not added.`);
              else upload(file);
            }
          }}
        />
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
