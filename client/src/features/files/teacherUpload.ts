import { toast } from 'sonner';
import { startUpload, type UploadHandlers } from './upload';
import { MAX_ATTACHMENT_BYTES } from './useAttachments';

/** What a teacher's file is for: materials of an assignment, or feedback on one student's work. */
export interface TeacherFileTarget {
  purpose: 'assignment' | 'feedback';
  assignmentId: string;
  studentId?: string;
}

/**
 * Uploads a teacher's files at once (a teacher attaches them while online: no device copy): each
 * over the size limit is refused by name, the others report their progress and, stored or not,
 * that they are done; a failure says why in a toast.
 */
export function uploadTeacherFiles(
  chosen: readonly File[],
  { purpose, assignmentId, studentId }: TeacherFileTarget,
  auth: Pick<UploadHandlers, 'token' | 'refresh'>,
  report: {
    started?: (key: string, file: File) => void;
    progress: (key: string, percent: number) => void;
    done: (key: string, stored: boolean) => void;
  },
): void {
  for (const file of chosen) {
    if (file.size > MAX_ATTACHMENT_BYTES) {
      toast.error(`${file.name}: over ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB, not added.`);
      continue;
    }
    const key = crypto.randomUUID();
    report.started?.(key, file);
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
        ...auth,
        onUrl: () => {},
        onProgress: (sent, total) => report.progress(key, total > 0 ? Math.floor((sent / total) * 100) : 0),
        onStored: () => report.done(key, true),
        onFailed: (failure) => {
          report.done(key, false);
          toast.error(
            failure.kind === 'refused'
              ? `${file.name}: ${failure.message}`
              : `${file.name} could not be uploaded: check the connection and attach it again.`,
          );
        },
      },
    );
  }
}
