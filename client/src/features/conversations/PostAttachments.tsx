import { POST_FILES_MAX } from '@classwave/shared';
import { FileText, X } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { IconButton } from '../../components/IconButton';
import { AttachFilesButton } from '../files/AttachFilesButton';
import { useRemoveFileMutation } from '../files/filesApi';
import { formatFileSize } from '../files/fileSize';
import { fileIdOf, startUpload } from '../files/upload';
import { MAX_ATTACHMENT_BYTES } from '../files/useAttachments';
import { useUploadAuth } from '../files/useUploadAuth';
import '../files/attachments.css';

/** A file chosen in the composer: uploading (with its percent) or stored (with its server id). */
export interface ComposerFile {
  key: string;
  name: string;
  size: number;
  percent: number;
  fileId: string | null;
  stored: boolean;
}

/**
 * A post's files, uploaded as soon as they are chosen (DESIGN §19: like an assignment's materials,
 * but before the post exists, so the post goes out with them): the post sends their ids once every
 * one is stored. A file taken out of the composer is removed from the server too.
 */
export function usePostUploads(courseId: string) {
  const auth = useUploadAuth();
  const [removeFile] = useRemoveFileMutation();
  const [chosen, setChosen] = useState<ComposerFile[]>([]);
  const aborts = useRef(new Map<string, () => void>());
  const change = (key: string, patch: Partial<ComposerFile>) =>
    setChosen((list) => list.map((f) => (f.key === key ? { ...f, ...patch } : f)));

  function add(files: File[]) {
    const room = POST_FILES_MAX - chosen.length;
    if (files.length > room) toast.error(`A post may carry ${POST_FILES_MAX} files at most.`);
    for (const file of files.slice(0, Math.max(room, 0))) {
      if (file.size > MAX_ATTACHMENT_BYTES) {
        toast.error(`${file.name}: over ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB, not added.`);
        continue;
      }
      const key = crypto.randomUUID();
      setChosen((list) => [
        ...list,
        { key, name: file.name, size: file.size, percent: 0, fileId: null, stored: false },
      ]);
      const upload = startUpload(
        file,
        { uploadUrl: null, metadata: { purpose: 'post', targetId: courseId, name: file.name } },
        {
          ...auth,
          onUrl: (url) => change(key, { fileId: fileIdOf(url) }),
          onProgress: (sent, total) =>
            change(key, { percent: total > 0 ? Math.floor((sent / total) * 100) : 0 }),
          onStored: () => change(key, { stored: true, percent: 100 }),
          onFailed: (failure) => {
            setChosen((list) => list.filter((f) => f.key !== key));
            toast.error(
              failure.kind === 'refused'
                ? `${file.name}: ${failure.message}`
                : `${file.name} could not be uploaded: check the connection and attach it again.`,
            );
          },
        },
      );
      aborts.current.set(key, () => void upload.abort(true));
    }
  }

  function remove(file: ComposerFile) {
    setChosen((list) => list.filter((f) => f.key !== file.key));
    if (!file.stored) aborts.current.get(file.key)?.();
    else if (file.fileId) void removeFile({ id: file.fileId, assignmentId: '' });
    aborts.current.delete(file.key);
  }

  /** After the post went out: its files are its own now, the composer starts empty. */
  const clear = useCallback(() => {
    aborts.current.clear();
    setChosen([]);
  }, []);

  // A composer left (the page changed) stops its uploads; stored ones are swept by the server a day later.
  useEffect(() => {
    const running = aborts.current;
    return () => running.forEach((abort) => abort());
  }, []);

  return {
    chosen,
    add,
    remove,
    clear,
    uploading: chosen.some((f) => !f.stored),
    fileIds: chosen.flatMap((f) => (f.stored && f.fileId ? [f.fileId] : [])),
  };
}

/** The composer's files: each with its size or its upload's percent, and Remove. */
export function PostAttachments({ uploads }: { uploads: ReturnType<typeof usePostUploads> }) {
  const listId = useId();
  return (
    <div className="post-composer__files">
      <AttachFilesButton
        label="Attach files to the post"
        disabled={uploads.chosen.length >= POST_FILES_MAX}
        onChosen={uploads.add}
      />
      {uploads.chosen.length > 0 && (
        <ul id={listId} className="attachments__list" aria-label="Files of the post">
          {uploads.chosen.map((file) => (
            <li key={file.key} className="attachment" aria-label={file.name}>
              <span className="attachment__icon" aria-hidden="true">
                <FileText size={18} />
              </span>
              <span className="attachment__body">
                <span className="attachment__name">{file.name}</span>
                <span className="attachment__meta" aria-live="polite">
                  {formatFileSize(file.size)} · {file.stored ? 'ready' : `uploading ${file.percent} %`}
                </span>
              </span>
              <IconButton
                label={`Remove ${file.name}`}
                icon={<X size={16} />}
                onClick={() => uploads.remove(file)}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
