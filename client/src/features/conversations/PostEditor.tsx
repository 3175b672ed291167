import { CONVERSATION_TEXT_MAX } from '@classwave/shared';
import { useId, useState } from 'react';
import { Button } from '../../components/Button';
import { Textarea } from '../../components/Textarea';
import { TextCounter } from './TextCounter';

/** A post's text being edited in place: Save sends it, Cancel (or Escape) leaves it as it was. */
export function PostEditor({
  initial,
  onSave,
  onCancel,
}: {
  initial: string;
  onSave: (text: string) => Promise<void>;
  onCancel: () => void;
}) {
  const [text, setText] = useState(initial);
  const [saving, setSaving] = useState(false);
  const counterId = useId();
  const invalid = text.trim() === '' || text.length > CONVERSATION_TEXT_MAX;
  return (
    <form
      className="post-editor"
      onSubmit={(event) => {
        event.preventDefault();
        if (invalid) return;
        setSaving(true);
        void onSave(text).finally(() => setSaving(false));
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <Textarea
        label="Edit post"
        rows={4}
        value={text}
        autoFocus
        aria-describedby={counterId}
        onChange={(event) => setText(event.target.value)}
      />
      <div className="comment-composer__bar">
        <TextCounter id={counterId} length={text.length} />
        <span className="post-editor__buttons">
          <Button variant="secondary" size="sm" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" size="sm" loading={saving} disabled={invalid}>
            Save
          </Button>
        </span>
      </div>
    </form>
  );
}
