import { useCallback, useEffect, useRef, useState } from 'react';
import type { Upload } from 'tus-js-client';
import { useAppDispatch } from '../../app/hooks';
import { deleteAttachment, readAttachments, writeAttachment, type DeviceAttachment } from './attachmentStore';
import { filesApi } from './filesApi';
import { fileIdOf, startUpload } from './upload';
import { useUploadAuth } from './useUploadAuth';

/** A submission's files at most (DESIGN §18: UPLOAD_MAX_FILES's default). */
export const MAX_ATTACHMENTS = 20;
/** A file's bytes at most (UPLOAD_MAX_BYTES's default); the server's own limit is the one that counts. */
export const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;

export type AttachmentPhase = 'waiting' | 'uploading' | 'stored' | 'refused';

/** One file of the answer as the dialog shows it. */
export interface Attachment {
  id: string;
  name: string;
  size: number;
  type: string;
  phase: AttachmentPhase;
  /** Bytes the server has (while uploading), of `size`. */
  sent: number;
  /** Why the server refused it (phase `refused`). */
  error?: string;
  fileId: string | null;
  blob: Blob;
}

const viewOf = (record: DeviceAttachment): Attachment => ({
  id: record.id,
  name: record.name,
  size: record.size,
  type: record.type,
  phase: record.stored ? 'stored' : 'waiting',
  sent: record.stored ? record.size : 0,
  fileId: record.fileId,
  blob: record.blob,
});

/**
 * The files of one student's answer (DESIGN §18): kept on the device from the moment they are
 * chosen, uploaded with tus while online (resumed where they stopped after a drop or a reload),
 * each one's progress shown. `fileIds` are those stored, for the submit; `pending` counts those not
 * stored yet, and `refused` those the server will not take (too large, not allowed).
 */
export function useAttachments(assignmentId: string | null, userId: string | null) {
  const auth = useUploadAuth();
  const dispatch = useAppDispatch();
  const [items, setItems] = useState<Attachment[]>([]);
  /** The device's files for this answer have been read (until then, `items` says nothing). */
  const [loaded, setLoaded] = useState(false);
  const records = useRef(new Map<string, DeviceAttachment>());
  const uploads = useRef(new Map<string, Upload>());

  const patch = useCallback((id: string, change: Partial<Attachment>) => {
    setItems((list) => list.map((item) => (item.id === id ? { ...item, ...change } : item)));
  }, []);

  const start = useCallback(
    (record: DeviceAttachment) => {
      if (record.stored || uploads.current.has(record.id)) return;
      if (!navigator.onLine) {
        patch(record.id, { phase: 'waiting' });
        return;
      }
      patch(record.id, { phase: 'uploading', error: undefined });
      const upload = startUpload(
        record.blob,
        {
          uploadUrl: record.uploadUrl,
          metadata: { purpose: 'submission', targetId: record.assignmentId, name: record.name },
        },
        {
          ...auth,
          onUrl: (url) => {
            record.uploadUrl = url;
            record.fileId = fileIdOf(url);
            patch(record.id, { fileId: record.fileId });
            void writeAttachment(record);
          },
          onProgress: (sent) => patch(record.id, { sent }),
          onStored: () => {
            uploads.current.delete(record.id);
            record.stored = true;
            void writeAttachment(record);
            patch(record.id, { phase: 'stored', sent: record.size });
          },
          onFailed: (failure) => {
            uploads.current.delete(record.id);
            if (failure.kind === 'refused') patch(record.id, { phase: 'refused', error: failure.message });
            else patch(record.id, { phase: 'waiting' });
          },
        },
      );
      uploads.current.set(record.id, upload);
    },
    [auth, patch],
  );

  // The answer's files on this device, and those still to upload started.
  useEffect(() => {
    const current = uploads.current;
    records.current = new Map();
    setItems([]);
    setLoaded(false);
    if (!assignmentId || !userId) return;
    let cancelled = false;
    void readAttachments(userId, assignmentId).then((found) => {
      if (cancelled) return;
      records.current = new Map(found.map((record) => [record.id, record]));
      setItems(found.map(viewOf));
      setLoaded(true);
      for (const record of found) start(record);
    });
    return () => {
      cancelled = true;
      // Left where they are: the device keeps each file and its URL, and the next opening resumes.
      for (const upload of current.values()) void upload.abort();
      current.clear();
    };
  }, [assignmentId, userId, start]);

  // Back online: what waited goes up.
  useEffect(() => {
    const resume = () => {
      for (const record of records.current.values()) start(record);
    };
    window.addEventListener('online', resume);
    return () => window.removeEventListener('online', resume);
  }, [start]);

  /** Keeps the chosen files on the device and starts their uploads; says what could not be added. */
  const add = useCallback(
    async (files: File[]): Promise<string | null> => {
      if (!assignmentId || !userId) return null;
      const room = MAX_ATTACHMENTS - records.current.size;
      const tooBig = files.filter((file) => file.size > MAX_ATTACHMENT_BYTES);
      const taken = files.filter((file) => file.size <= MAX_ATTACHMENT_BYTES).slice(0, Math.max(0, room));
      const now = Date.now();
      const added = taken.map((file, index): DeviceAttachment => ({
        id: crypto.randomUUID(),
        userId,
        assignmentId,
        name: file.name,
        type: file.type,
        size: file.size,
        blob: file,
        uploadUrl: null,
        fileId: null,
        stored: false,
        addedAt: now + index,
      }));
      for (const record of added) {
        await writeAttachment(record);
        records.current.set(record.id, record);
      }
      setItems((list) => [...list, ...added.map(viewOf)]);
      for (const record of added) start(record);
      if (tooBig.length > 0)
        return `${tooBig.map((file) => file.name).join(', ')}: over ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB, not added.`;
      if (taken.length < files.length - tooBig.length)
        return `An answer takes ${MAX_ATTACHMENTS} files at most: ${files.length - tooBig.length - taken.length} not added.`;
      return null;
    },
    [assignmentId, userId, start],
  );

  /** Takes a file off the answer: its upload stops, and a file the server has is deleted there. */
  const remove = useCallback(
    async (id: string) => {
      const record = records.current.get(id);
      records.current.delete(id);
      setItems((list) => list.filter((item) => item.id !== id));
      const upload = uploads.current.get(id);
      uploads.current.delete(id);
      if (upload) await upload.abort(true).catch(() => {});
      else if (record?.fileId)
        await dispatch(
          filesApi.endpoints.removeFile.initiate({ id: record.fileId, assignmentId: record.assignmentId }),
        )
          .unwrap()
          .catch(() => {});
      await deleteAttachment(id);
    },
    [dispatch],
  );

  /** After the submit: the files are the submission's now, and the device lets them go. */
  const handedIn = useCallback(async () => {
    const ids = [...records.current.keys()];
    records.current = new Map();
    setItems([]);
    await Promise.all(ids.map(deleteAttachment));
  }, []);

  const fileIds = items.filter((item) => item.phase === 'stored' && item.fileId).map((item) => item.fileId!);
  const pending = items.filter((item) => item.phase === 'waiting' || item.phase === 'uploading').length;
  const refused = items.filter((item) => item.phase === 'refused').length;
  return { items, loaded, add, remove, handedIn, fileIds, pending, refused };
}
export type Attachments = ReturnType<typeof useAttachments>;
