import clsx from 'clsx';
import type { CSSProperties } from 'react';
import './Skeleton.css';

export interface SkeletonProps {
  /** Any CSS width; the full width by default. */
  width?: CSSProperties['width'];
  /** Any CSS height; one line of text by default. */
  height?: CSSProperties['height'];
  /** A circle, e.g. for an avatar. */
  circle?: boolean;
  className?: string;
}

/**
 * A grey, gently pulsing block standing in for content that is loading. Decorative: the region
 * that holds skeletons announces the wait itself (e.g. `aria-busy` and a hidden status).
 */
export function Skeleton({ width, height, circle = false, className }: SkeletonProps) {
  return (
    <span
      aria-hidden="true"
      className={clsx('skeleton', circle && 'skeleton--circle', className)}
      style={{ width, height }}
    />
  );
}
