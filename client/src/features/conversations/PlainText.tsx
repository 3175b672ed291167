import { Fragment } from 'react';
import { linkify } from './linkify';

/**
 * A post's or comment's text as its author typed it: line breaks kept (CSS `pre-wrap` on the
 * container), http(s) addresses linked, everything else as text nodes (React escapes them).
 */
export function PlainText({ text, className }: { text: string; className?: string }) {
  return (
    <p className={className} dir="auto">
      {linkify(text).map((part, index) =>
        part.kind === 'link' ? (
          <a key={index} href={part.href} target="_blank" rel="noopener noreferrer nofollow ugc">
            {part.text}
          </a>
        ) : (
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </p>
  );
}
