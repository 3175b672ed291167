import { Paperclip } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '../../components/Button';

/** What may be attached: photos (HEIC too), PDFs, documents, text, audio and video (DESIGN §18). */
export const ACCEPTED_FILES =
  'image/*,.heic,.heif,application/pdf,.doc,.docx,.odt,.ppt,.pptx,.odp,.xls,.xlsx,.ods,.txt,.csv,.rtf,audio/*,video/*';

/** "Attach files": a button that opens the file picker (several at once) and hands over what was chosen. */
export function AttachFilesButton({
  label = 'Attach files',
  disabled,
  onChosen,
}: {
  /** The picker's name for screen readers. */
  label?: string;
  disabled?: boolean;
  onChosen: (files: File[]) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        icon={<Paperclip />}
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        Attach files
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPTED_FILES}
        className="sr-only"
        tabIndex={-1}
        aria-label={label}
        disabled={disabled}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onChosen(files);
        }}
      />
    </>
  );
}
