import { CONVERSATION_TEXT_MAX, type CreatePostBody } from '@classwave/shared';
import { Send } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/Button';
import { Input } from '../../components/Input';
import { Textarea } from '../../components/Textarea';
import { useCreatePostMutation } from './conversationsApi';
import { PostAttachments, usePostUploads } from './PostAttachments';
import { TextCounter } from './TextCounter';
import { tried } from './tried';
import '../grading/grading.css';

/** The teacher's box at the top of the stream: plain text, and whether to pin, close comments or wait. */
export function PostComposer({ courseId }: { courseId: string }) {
  const [text, setText] = useState('');
  const [pinned, setPinned] = useState(false);
  const [commentsOff, setCommentsOff] = useState(false);
  const [later, setLater] = useState(false);
  const [publishAt, setPublishAt] = useState('');
  const [create, { isLoading }] = useCreatePostMutation();
  const uploads = usePostUploads(courseId);
  const counterId = useId();
  // A post waits for its files: it goes out with every one of them, or not yet.
  const invalid =
    text.trim() === '' ||
    text.length > CONVERSATION_TEXT_MAX ||
    (later && publishAt === '') ||
    uploads.uploading;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (invalid || isLoading) return;
    const body: CreatePostBody = { text, pinned, commentsOff };
    if (uploads.fileIds.length > 0) body.fileIds = uploads.fileIds;
    if (later) body.publishAt = new Date(publishAt).toISOString();
    if (!(await tried(create({ courseId, body }).unwrap(), 'Your post could not be sent.'))) return;
    toast.success(later ? 'Post scheduled.' : 'Posted to the class.');
    setText('');
    setPinned(false);
    setCommentsOff(false);
    setLater(false);
    setPublishAt('');
    uploads.clear();
  }

  return (
    <form className="card post-composer" onSubmit={(event) => void submit(event)}>
      <Textarea
        label="Share with your class"
        rows={3}
        placeholder="Announce something to your class..."
        value={text}
        aria-describedby={counterId}
        onChange={(event) => setText(event.target.value)}
      />
      <TextCounter id={counterId} length={text.length} />
      <div className="post-composer__options">
        <label className="choice">
          <input type="checkbox" checked={pinned} onChange={(event) => setPinned(event.target.checked)} />
          Pin to top
        </label>
        <label className="choice">
          <input
            type="checkbox"
            checked={commentsOff}
            onChange={(event) => setCommentsOff(event.target.checked)}
          />
          Comments off for this post
        </label>
        <label className="choice">
          <input type="checkbox" checked={later} onChange={(event) => setLater(event.target.checked)} />
          Schedule for later
        </label>
      </div>
      {later && (
        <Input
          label="Publish at"
          type="datetime-local"
          required
          value={publishAt}
          onChange={(event) => setPublishAt(event.target.value)}
        />
      )}
      <PostAttachments uploads={uploads} />
      <div className="post-composer__bar">
        {uploads.uploading && <span className="post-composer__wait">Waiting for the files…</span>}
        <Button type="submit" icon={<Send />} loading={isLoading} disabled={invalid}>
          {later ? 'Schedule' : 'Post'}
        </Button>
      </div>
    </form>
  );
}
