import type { ConfirmOptions } from '../../components/ConfirmDialog';

/**
 * What Generate Samples asks first (DESIGN §17): samples go to a new sandbox course of their own,
 * never to a class, and the teacher is told so before anything is made.
 */
export const SAMPLE_CONFIRMATION: ConfirmOptions = {
  title: 'Create a sample course?',
  description:
    'A new course with three sample assignments (50, 100 and 150 points) due in the coming weeks. It has no students, so nobody is notified; delete it when you are done.',
  confirmLabel: 'Create sample course',
  tone: 'primary',
};

/** The toast once it is made. */
export const SAMPLE_CREATED = 'Sample course created, with three assignments';
