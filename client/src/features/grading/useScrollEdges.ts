import { useEffect, useState, type RefObject } from 'react';

/** Whether a sideways-scrolling box has more content past its left and right edges, kept up to date. */
export function useScrollEdges(ref: RefObject<HTMLElement | null>): { left: boolean; right: boolean } {
  const [edges, setEdges] = useState({ left: false, right: false });
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => {
      const left = box.scrollLeft > 1;
      const right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
      setEdges((was) => (was.left === left && was.right === right ? was : { left, right }));
    };
    measure();
    box.addEventListener('scroll', measure, { passive: true });
    // Not every browser (nor jsdom) has it: without it the edges are measured on scroll only.
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : undefined;
    resize?.observe(box);
    if (box.firstElementChild) resize?.observe(box.firstElementChild);
    return () => {
      box.removeEventListener('scroll', measure);
      resize?.disconnect();
    };
  }, [ref]);
  return edges;
}
