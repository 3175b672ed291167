import { FileText, Image as ImageIcon, X } from 'lucide-react';
import { useId } from 'react';
import { toast } from 'sonner';
import { IconButton } from '../../components/IconButton';
import { AttachFilesButton } from './AttachFilesButton';
import { formatFileSize } from './fileSize';
import { uploadTeacherFiles } from './teacherUpload';
import type { UploadHandlers } from './upload';
import './attachments.css';

/**
 * Materials chosen while an assignment is created: held in the dialog until it exists (an upload
 * names its assignment), each with its size and a Remove button.
 */
export function ChosenMaterials({
  files,
  onChange,
}: {
  files: readonly File[];
  onChange: (files: File[]) => void;
}) {
  const headingId = useId();
  return (
    <section className="attachments" aria-labelledby={headingId}>
      <div className="attachments__head">
        <h3 id={headingId} className="attachments__title">
          Materials {files.length > 0 && <span className="attachments__count">({files.length})</span>}
        </h3>
        <AttachFilesButton
          label="Attach files to materials"
          onChosen={(chosen) => onChange([...files, ...chosen])}
        />
      </div>
      {files.length > 0 && (
        <ul className="attachments__list" aria-label="Materials">
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`} className="attachment" aria-label={file.name}>
              <span className="attachment__icon" aria-hidden="true">
                {file.type.startsWith('image/') ? <ImageIcon size={18} /> : <FileText size={18} />}
              </span>
              <span className="attachment__body">
                <span className="attachment__name">{file.name}</span>
                <span className="attachment__meta">{formatFileSize(file.size)} · uploaded when created</span>
              </span>
              <IconButton
                label={`Remove ${file.name}`}
                icon={<X size={16} />}
                onClick={() => onChange(files.filter((_, i) => i !== index))}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The chosen materials of a just-created assignment, uploaded after the dialog has closed: one toast
 * follows them all ("Uploading materials: 40 %") and says when they are there; students get each
 * file live as it is stored (file:ready).
 */
export function uploadMaterialsOf(
  assignmentId: string,
  chosen: readonly File[],
  auth: Pick<UploadHandlers, 'token' | 'refresh'>,
): void {
  if (chosen.length === 0) return;
  const toastId = `materials-${assignmentId}`;
  const sizes = new Map<string, number>();
  const sent = new Map<string, number>();
  let stored = 0;
  const show = () => {
    const total = [...sizes.values()].reduce((a, b) => a + b, 0);
    const done = [...sent.values()].reduce((a, b) => a + b, 0);
    toast.loading(`Uploading materials: ${total > 0 ? Math.floor((done / total) * 100) : 0} %`, {
      id: toastId,
    });
  };
  uploadTeacherFiles(chosen, { purpose: 'assignment', assignmentId }, auth, {
    started: (key, file) => {
      sizes.set(key, file.size);
      sent.set(key, 0);
      show();
    },
    progress: (key, percent) => {
      sent.set(key, ((sizes.get(key) ?? 0) * percent) / 100);
      show();
    },
    done: (key, ok) => {
      sizes.delete(key);
      sent.delete(key);
      if (ok) stored += 1;
      if (sizes.size > 0) return show();
      if (stored > 0)
        toast.success(stored === 1 ? 'Materials uploaded: 1 file.' : `Materials uploaded: ${stored} files.`, {
          id: toastId,
        });
      else toast.dismiss(toastId);
    },
  });
}
