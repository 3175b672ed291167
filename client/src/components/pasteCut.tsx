import { useState, type ClipboardEvent, type ClipboardEventHandler, type ReactNode } from 'react';

/**
 * A paste longer than the field's `maxLength` is cut by the browser without a word (issue 25: a
 * 5,000-character title became 200 unnoticed). This says so under the field, until a paste fits.
 */
export function usePasteCut<E extends HTMLInputElement | HTMLTextAreaElement>(
  maxLength: number | undefined,
  hint: ReactNode,
  onPaste: ClipboardEventHandler<E> | undefined,
) {
  const [cutTo, setCutTo] = useState<number | null>(null);
  const handlePaste = (event: ClipboardEvent<E>) => {
    onPaste?.(event);
    if (maxLength === undefined) return;
    const field = event.currentTarget;
    const replaced =
      (field.selectionEnd ?? field.value.length) - (field.selectionStart ?? field.value.length);
    const length = field.value.length - replaced + event.clipboardData.getData('text').length;
    setCutTo(length > maxLength ? maxLength : null);
  };
  const notice =
    cutTo === null ? null : (
      <span className="field__warning" role="status">
        The pasted text was cut to {cutTo.toLocaleString()} characters, the most this field holds.
      </span>
    );
  return {
    onPaste: handlePaste,
    hint:
      notice === null ? (
        hint
      ) : hint == null ? (
        notice
      ) : (
        <>
          {notice} {hint}
        </>
      ),
  };
}
