import type { Assignment } from '@classwave/shared';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * The assignment whose answer dialog is open, remembered outside the page for as long as the tab
 * stays on the same history entry: if the page is ever built anew while a student writes (issue 25,
 * item 10: it happened under load around a token refresh), the dialog opens again, over the text
 * its draft kept. A reload or a link followed (a new entry) starts closed, as before.
 */
let remembered: { entry: string; userId: string; assignment: Assignment } | null = null;

export function useAnswerOpen(userId: string | null) {
  const { key } = useLocation();
  const [open, setOpen] = useState<Assignment | null>(() =>
    remembered && remembered.entry === key && remembered.userId === userId ? remembered.assignment : null,
  );
  function change(assignment: Assignment | null) {
    remembered = assignment && userId ? { entry: key, userId, assignment } : null;
    setOpen(assignment);
  }
  return [open, change] as const;
}
