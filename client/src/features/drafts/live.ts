import type { LiveEvent } from '@classwave/shared';
import { onEvery, type LiveFeature } from '../../realtime/liveFeature';
import { accessBack, draftSavedElsewhere } from './draftEvents';

/**
 * Drafts' live handlers (DESIGN §12, §17): a draft saved in another tab reaches the open answer
 * dialog, and so does the student's own way back into a course (restored, or joined again).
 */
export const draftsLive: LiveFeature = {
  on: {
    'draft:saved':
      ({ data }) =>
      () =>
        draftSavedElsewhere(data),
    ...onEvery(
      ['member:restored', 'member:joined'] as const,
      ({ data }: LiveEvent<'member:restored' | 'member:joined'>) =>
        (_dispatch, getState) => {
          if (data.member.student.id === getState().auth.profile?.id) accessBack(data.course.id);
        },
    ),
  },
};
