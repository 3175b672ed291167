import { FileText, Image as ImageIcon, X } from 'lucide-react';
import { useId, useSyncExternalStore } from 'react';
import { IconButton } from '../../components/IconButton';
import { AttachFilesButton } from './AttachFilesButton';
import { formatFileSize } from './fileSize';
import type { Attachment, Attachments } from './useAttachments';
import './attachments.css';

function subscribeOnline(change: () => void) {
  window.addEventListener('online', change);
  window.addEventListener('offline', change);
  return () => {
    window.removeEventListener('online', change);
    window.removeEventListener('offline', change);
  };
}
/** The browser's own online flag, followed. */
const useOnline = () => useSyncExternalStore(subscribeOnline, () => navigator.onLine);

function statusOf(item: Attachment, online: boolean): string {
  switch (item.phase) {
    case 'stored':
      return 'Uploaded';
    case 'uploading':
      return `Uploading ${item.size > 0 ? Math.floor((item.sent / item.size) * 100) : 100} %`;
    case 'refused':
      return item.error ?? 'Not uploaded';
    case 'waiting':
      return online ? 'Waiting to upload' : 'On this device, waiting for a connection';
  }
}

/**
 * The answer's files: Attach files, then each file with its size, its progress and a Remove button.
 * Files chosen offline say they wait on this device.
 */
export function AttachmentsField({
  attachments,
  disabled,
  onProblem,
}: {
  attachments: Attachments;
  disabled: boolean;
  /** Something chosen that could not be added (too many, too large). */
  onProblem: (message: string) => void;
}) {
  const headingId = useId();
  const isOnline = useOnline();
  const { items } = attachments;

  return (
    <section className="attachments" aria-labelledby={headingId}>
      <div className="attachments__head">
        <h3 id={headingId} className="attachments__title">
          Files {items.length > 0 && <span className="attachments__count">({items.length})</span>}
        </h3>
        <AttachFilesButton
          disabled={disabled}
          onChosen={(files) => void attachments.add(files).then((problem) => problem && onProblem(problem))}
        />
      </div>
      {items.length > 0 && (
        <ul className="attachments__list" aria-label="Attached files">
          {items.map((item) => {
            const percent = item.size > 0 ? Math.floor((item.sent / item.size) * 100) : 100;
            return (
              <li key={item.id} className={`attachment attachment--${item.phase}`} aria-label={item.name}>
                <span className="attachment__icon" aria-hidden="true">
                  {item.type.startsWith('image/') ? <ImageIcon size={18} /> : <FileText size={18} />}
                </span>
                <span className="attachment__body">
                  <span className="attachment__name">{item.name}</span>
                  <span className="attachment__meta">
                    {formatFileSize(item.size)} · <span role="status">{statusOf(item, isOnline)}</span>
                  </span>
                  {item.phase !== 'stored' && item.phase !== 'refused' && (
                    <span
                      className="attachment__bar"
                      role="progressbar"
                      aria-label={`${item.name} uploaded`}
                      aria-valuemin={0}
                      aria-valuemax={100}
                      aria-valuenow={percent}
                    >
                      <span className="attachment__fill" style={{ width: `${percent}%` }} />
                    </span>
                  )}
                </span>
                <IconButton
                  label={`Remove ${item.name}`}
                  icon={<X size={16} />}
                  disabled={disabled}
                  onClick={() => void attachments.remove(item.id)}
                />
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
