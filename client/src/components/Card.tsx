import clsx from 'clsx';
import type { HTMLAttributes } from 'react';
import './Card.css';

export interface CardProps extends HTMLAttributes<HTMLElement> {
  /** The element to render: a plain box, or a section/article when it has its own heading. */
  as?: 'div' | 'section' | 'article';
  padding?: 'none' | 'md' | 'lg';
}

/** A rounded, lightly shadowed surface that groups related content. */
export function Card({ as: Element = 'div', padding = 'md', className, ...rest }: CardProps) {
  return <Element {...rest} className={clsx('card', `card--pad-${padding}`, className)} />;
}
