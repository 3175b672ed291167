import type { AssignmentRubric, LiveEvent } from '@classwave/shared';
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { applyLiveEvent } from '../../realtime/applyLiveEvent';
import { answerApi } from '../../test/api';
import { createAssignment, signedInAuth } from '../../test/factories';
import { rubricsApi } from './rubricsApi';

describe('a rubric changed live (DESIGN §17)', () => {
  it('loads again where it is shown when its assignment is updated', async () => {
    const assignment = createAssignment({ maxPoints: 10 });
    let served: AssignmentRubric = { assignmentId: assignment.id, maxPoints: 10, rubric: null };
    const calls = answerApi({ [`GET /api/assignments/${assignment.id}/rubric`]: () => ({ body: served }) });
    const store = makeStore({ auth: signedInAuth({ role: 'student' }) });
    const shown = store.dispatch(rubricsApi.endpoints.getRubric.initiate(assignment.id));
    await shown;
    const criteria = [
      {
        id: assignment.id,
        title: 'All of it',
        levels: [{ id: assignment.courseId, title: 'Done', points: 10 }],
      },
    ];
    served = { ...served, rubric: { criteria } };
    const updated: LiveEvent<'assignment:updated'> = {
      id: 1,
      type: 'assignment:updated',
      at: new Date().toISOString(),
      data: assignment,
    };
    store.dispatch(applyLiveEvent(updated));
    const read = () => rubricsApi.endpoints.getRubric.select(assignment.id)(store.getState() as never).data;
    await waitFor(() => expect(read()?.rubric?.criteria[0]?.title).toBe('All of it'));
    expect(calls.filter((c) => c.path.endsWith('/rubric'))).toHaveLength(2);
    shown.unsubscribe();
  });
});
