import clsx from 'clsx';
import './Avatar.css';

export interface AvatarProps {
  /** The person's full name; the avatar shows its first letter. */
  name: string;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

/** The first letter of a name, upper-cased; '?' when there is no name. */
export function initialOf(name: string): string {
  const first = name.trim().charAt(0);
  return first ? first.toLocaleUpperCase() : '?';
}

/** A round badge with a person's initial. Decorative: the name is always written next to it. */
export function Avatar({ name, size = 'md', className }: AvatarProps) {
  return (
    <span aria-hidden="true" className={clsx('avatar', `avatar--${size}`, className)}>
      {initialOf(name)}
    </span>
  );
}
