import clsx from 'clsx';
import { Search } from 'lucide-react';
import type { InputHTMLAttributes } from 'react';
import './SearchField.css';

export interface SearchFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'size'> {
  /** The accessible name; the placeholder shows the same idea to sighted users. */
  label: string;
}

/** A search box with a magnifier. It has no visible label, so `label` names it for screen readers. */
export function SearchField({ label, className, ...rest }: SearchFieldProps) {
  return (
    <div role="search" className={clsx('search-field', className)}>
      <Search className="search-field__icon" aria-hidden="true" size={18} />
      <input {...rest} type="search" aria-label={label} className="search-field__input" />
    </div>
  );
}
