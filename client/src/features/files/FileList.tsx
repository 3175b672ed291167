import type { FileSummary } from '@classwave/shared';
import { Download, Eye, FileText, X } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { useAppDispatch } from '../../app/hooks';
import { Button } from '../../components/Button';
import { IconButton } from '../../components/IconButton';
import { Modal } from '../../components/Modal';
import { downloadFile, previewable, useFileUrl } from './fileAccess';
import { formatFileSize } from './fileSize';
import './attachments.css';

/** A photo's small picture in the list, loaded with the session's token. */
function Thumbnail({ file }: { file: FileSummary }) {
  const { url } = useFileUrl(file);
  const [broken, setBroken] = useState(false);
  return url && !broken ? (
    <img className="file-list__thumb" src={url} alt="" onError={() => setBroken(true)} />
  ) : (
    <span className="file-list__thumb file-list__thumb--empty" aria-hidden="true" />
  );
}

/** An image or a PDF shown over the page; nothing else is ever rendered here. */
function Preview({ file, onClose }: { file: FileSummary; onClose: () => void }) {
  const { url, error } = useFileUrl(file);
  const [undecodable, setUndecodable] = useState(false);
  return (
    <Modal open onClose={onClose} title={file.name} size="lg" className="file-preview">
      {error ? (
        <p>{error}</p>
      ) : undecodable ? (
        <p>This browser cannot show this picture: download it to open it.</p>
      ) : !url ? (
        <p role="status">Loading…</p>
      ) : file.type === 'application/pdf' ? (
        <iframe className="file-preview__pdf" src={url} title={file.name} />
      ) : (
        <img className="file-preview__image" src={url} alt={file.name} onError={() => setUndecodable(true)} />
      )}
    </Modal>
  );
}

/**
 * The files handed in with a piece of work (DESIGN §18): each with its size, Open for images and
 * PDFs (shown in the app) and Download for every file.
 */
export function FileList({
  files,
  label = 'Files',
  onRemove,
}: {
  files: FileSummary[];
  label?: string;
  /** Offered to a file's uploader while its parent may change (materials, feedback). */
  onRemove?: (file: FileSummary) => void;
}) {
  const dispatch = useAppDispatch();
  const [open, setOpen] = useState<FileSummary | null>(null);
  if (files.length === 0) return null;
  return (
    <>
      <ul className="file-list" aria-label={label}>
        {files.map((file) => (
          <li key={file.id} className="file-list__item" aria-label={file.name}>
            {file.type.startsWith('image/') && previewable(file.type) ? (
              <Thumbnail file={file} />
            ) : (
              <span className="file-list__icon" aria-hidden="true">
                <FileText size={18} />
              </span>
            )}
            <span className="file-list__body">
              <span className="file-list__name">{file.name}</span>
              <span className="file-list__meta">{formatFileSize(file.size)}</span>
            </span>
            <span className="file-list__actions">
              {previewable(file.type) && (
                <Button size="sm" variant="secondary" icon={<Eye />} onClick={() => setOpen(file)}>
                  Open
                </Button>
              )}
              <Button
                size="sm"
                variant="ghost"
                icon={<Download />}
                aria-label={`Download ${file.name}`}
                onClick={() =>
                  void downloadFile(dispatch, file).catch((error: Error) => toast.error(error.message))
                }
              >
                Download
              </Button>
              {onRemove && (
                <IconButton
                  label={`Remove ${file.name}`}
                  icon={<X size={16} />}
                  onClick={() => onRemove(file)}
                />
              )}
            </span>
          </li>
        ))}
      </ul>
      {open && <Preview file={open} onClose={() => setOpen(null)} />}
    </>
  );
}
