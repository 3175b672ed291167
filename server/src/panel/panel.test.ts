import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssignmentPanel, LiveEvent } from '@classwave/shared';
import { createTestApp } from '../../test/support/app.js';
import {
  createAssignment,
  createCourse,
  createStudent,
  createTeacher,
  joinCourse,
  submit,
  type Actor,
} from '../../test/support/factories.js';
import { liveTestApp, type LiveTestApp } from '../../test/support/live-app.js';
import type { Recorder } from '../../test/support/sockets.js';

/**
 * The live assignment panel (DESIGN §13): who is viewing or writing comes from the students'
 * sockets (presence:set), who submitted from the database; the teacher hears changes as
 * `assignment:panel`, at most about once a second per assignment.
 */
let t: LiveTestApp;
let teacher: Actor;
let ada: Actor;
let ben: Actor;
let cy: Actor;

beforeAll(async () => {
  t = await liveTestApp();
  [teacher, ada, ben, cy] = await Promise.all([
    createTeacher(t, 'Panel Teacher'),
    createStudent(t, 'Ada'),
    createStudent(t, 'Ben'),
    createStudent(t, 'Cy'),
  ]);
});
afterAll(() => t.close());

async function setPresence(r: Recorder, payload: object): Promise<unknown> {
  return (r.socket as unknown as Socket).timeout(3000).emitWithAck('presence:set', payload);
}
/** The teacher's tab shows the assignment's panel (or none: null). */
async function watchPanel(r: Recorder, assignmentId: string | null): Promise<unknown> {
  return (r.socket as unknown as Socket).timeout(3000).emitWithAck('panel:watch', { assignmentId });
}
const panelOf = async (assignmentId: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${assignmentId}/panel`,
      headers: teacher.headers,
    })
  ).json<AssignmentPanel>();
const stateOf = (panel: AssignmentPanel, who: Actor) => panel.students.find((s) => s.id === who.id)?.state;

describe('the assignment panel', () => {
  it('counts not opened, viewing, writing and submitted, live, and forgets a closed tab', async () => {
    const course = await createCourse(t, teacher);
    await Promise.all([ada, ben, cy].map((s) => joinCourse(t, s, course)));
    const assignment = await createAssignment(t, teacher, course);
    const other = await createAssignment(t, teacher, course, { title: 'Other' });
    const teacherLive = await t.tab(teacher);
    expect(await watchPanel(teacherLive, assignment.id)).toEqual({ ok: true });
    expect((await panelOf(assignment.id)).counts).toMatchObject({ not_opened: 3, viewing: 0, writing: 0 });

    const [adaTab, benTab, adaSecondTab] = [await t.tab(ada), await t.tab(ben), await t.tab(ada)];
    expect(await setPresence(adaTab, { assignmentId: assignment.id, state: 'viewing' })).toEqual({
      ok: true,
    });
    expect(await setPresence(adaSecondTab, { assignmentId: assignment.id, state: 'writing' })).toEqual({
      ok: true,
    });
    expect(await setPresence(benTab, { assignmentId: other.id, state: 'writing' })).toEqual({ ok: true });
    await submit(t, cy, assignment);

    const panel = await panelOf(assignment.id);
    // Ada's busiest tab wins; Ben is on another assignment; Cy submitted.
    expect([stateOf(panel, ada), stateOf(panel, ben), stateOf(panel, cy)]).toEqual([
      'writing',
      'not_opened',
      'submitted',
    ]);
    expect(panel.counts).toEqual({
      not_opened: 1,
      viewing: 0,
      writing: 1,
      submitted: 1,
      late: 0,
      missing: 0,
    });

    // The teacher hears it: the latest panel event for the assignment says the same.
    const latest = () =>
      [...teacherLive.events]
        .reverse()
        .find(
          (e) => e.type === 'assignment:panel' && (e.data as AssignmentPanel).assignmentId === assignment.id,
        );
    await expect
      .poll(() => (latest()?.data as AssignmentPanel | undefined)?.counts.writing, { timeout: 5000 })
      .toBe(1);
    await expect
      .poll(() => (latest()?.data as AssignmentPanel | undefined)?.counts.submitted, { timeout: 5000 })
      .toBe(1);

    // The writing tab closes: Ada is back to viewing, live.
    adaSecondTab.close();
    await expect
      .poll(async () => stateOf(await panelOf(assignment.id), ada), { timeout: 5000 })
      .toBe('viewing');
    await expect
      .poll(() => stateOf(latest()?.data as AssignmentPanel, ada), { timeout: 5000 })
      .toBe('viewing');
    // The tab moves on to nothing.
    expect(await setPresence(adaTab, { assignmentId: null, state: null })).toEqual({ ok: true });
    expect(stateOf(await panelOf(assignment.id), ada)).toBe('not_opened');
  });

  it('sends at most about one panel a second per assignment, the last state included', async () => {
    const course = await createCourse(t, teacher);
    await joinCourse(t, ada, course);
    const assignment = await createAssignment(t, teacher, course);
    const teacherLive = await t.tab(teacher);
    await watchPanel(teacherLive, assignment.id);
    const tab = await t.tab(ada);
    const started = Date.now();
    for (let i = 0; i < 10; i++)
      await setPresence(tab, { assignmentId: assignment.id, state: i % 2 ? 'viewing' : 'writing' });
    const panels = () =>
      teacherLive.events.filter(
        (e: LiveEvent) =>
          e.type === 'assignment:panel' && (e.data as AssignmentPanel).assignmentId === assignment.id,
      );
    // The last report (viewing) arrives, within the throttle window after the burst.
    await expect
      .poll(() => stateOf(panels().at(-1)?.data as AssignmentPanel, ada), { timeout: 5000 })
      .toBe('viewing');
    const elapsed = Date.now() - started;
    expect(panels().length).toBeLessThanOrEqual(Math.ceil(elapsed / 1000) + 1);
  });

  it('counts a saved draft as writing with no tab open, live, and reads the same from another process', async () => {
    const course = await createCourse(t, teacher);
    await Promise.all([ada, ben].map((s) => joinCourse(t, s, course)));
    const assignment = await createAssignment(t, teacher, course);
    const teacherLive = await t.tab(teacher);
    await watchPanel(teacherLive, assignment.id);
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/assignments/${assignment.id}/draft`,
      headers: ada.headers,
      payload: { content: 'Started on the bus', baseVersion: 0 },
    });
    expect(saved.statusCode).toBe(200);
    // No tab of Ada's is open: the draft alone says she has started, and the teacher hears it.
    await teacherLive.waitFor(
      (e) =>
        e.type === 'assignment:panel' &&
        (e.data as AssignmentPanel).assignmentId === assignment.id &&
        stateOf(e.data as AssignmentPanel, ada) === 'writing',
    );
    const other = await createTestApp({ database: t.app.core.database });
    try {
      const fromOther = await other.app.inject({
        method: 'GET',
        url: `/api/assignments/${assignment.id}/panel`,
        headers: teacher.headers,
      });
      expect(fromOther.json<AssignmentPanel>().counts).toMatchObject({ writing: 1, not_opened: 1 });
    } finally {
      await other.close();
    }
    // Her tab on it, not typing: still writing (she has work in progress); Ben only looking: viewing.
    const [adaTab, benTab] = [await t.tab(ada), await t.tab(ben)];
    await setPresence(adaTab, { assignmentId: assignment.id, state: 'viewing' });
    await setPresence(benTab, { assignmentId: assignment.id, state: 'viewing' });
    const panel = await panelOf(assignment.id);
    expect([stateOf(panel, ada), stateOf(panel, ben)]).toEqual(['writing', 'viewing']);
    adaTab.close();
    benTab.close();
    // Past the due time a draft is not a submission: missing, unless a tab is on it now.
    await t.app.inject({
      method: 'PATCH',
      url: `/api/assignments/${assignment.id}`,
      headers: teacher.headers,
      payload: { dueDate: new Date(Date.now() - 3600_000).toISOString() },
    });
    await expect
      .poll(async () => stateOf(await panelOf(assignment.id), ada), { timeout: 5000 })
      .toBe('missing');
  });

  it('is the teacher’s alone, and ignores reports from a student who left', async () => {
    const course = await createCourse(t, teacher);
    await joinCourse(t, ben, course);
    const assignment = await createAssignment(t, teacher, course);
    const tab = await t.tab(ben);
    expect(await setPresence(tab, { assignmentId: assignment.id, state: 'writing' })).toEqual({ ok: true });
    const studentRead = await t.app.inject({
      method: 'GET',
      url: `/api/assignments/${assignment.id}/panel`,
      headers: ben.headers,
    });
    expect(studentRead.statusCode).toBe(403);
    await t.app.inject({ method: 'POST', url: `/api/courses/${course.id}/leave`, headers: ben.headers });
    // Gone from the course: no longer counted, and a new report is refused.
    expect((await panelOf(assignment.id)).students).toEqual([]);
    expect(await setPresence(tab, { assignmentId: assignment.id, state: 'writing' })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });
  it('is computed only while a teacher watches it, and only its teacher may', async () => {
    const course = await createCourse(t, teacher);
    await joinCourse(t, ada, course);
    const assignment = await createAssignment(t, teacher, course);
    const teacherLive = await t.tab(teacher);
    const panels = () =>
      teacherLive.events.filter(
        (e: LiveEvent) =>
          e.type === 'assignment:panel' && (e.data as AssignmentPanel).assignmentId === assignment.id,
      );
    // Nobody shows the panel: Ada opening the assignment sends nothing.
    const tab = await t.tab(ada);
    await setPresence(tab, { assignmentId: assignment.id, state: 'viewing' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(panels()).toEqual([]);

    // Another teacher, and a student, may not watch it.
    const stranger = await t.tab(await createTeacher(t, 'Other Teacher'));
    expect(await watchPanel(stranger, assignment.id)).toMatchObject({ ok: false, code: 'not_found' });
    expect(await watchPanel(tab, assignment.id)).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await watchPanel(teacherLive, 'not-an-id')).toMatchObject({
      ok: false,
      code: 'validation_failed',
    });

    // Its teacher watches: the next change is sent; after unwatching, none is.
    expect(await watchPanel(teacherLive, assignment.id)).toEqual({ ok: true });
    await setPresence(tab, { assignmentId: assignment.id, state: 'writing' });
    await expect
      .poll(() => stateOf(panels().at(-1)?.data as AssignmentPanel, ada), { timeout: 5000 })
      .toBe('writing');
    expect(await watchPanel(teacherLive, null)).toEqual({ ok: true });
    const heard = panels().length;
    await new Promise((r) => setTimeout(r, 1100)); // past the throttle window
    await setPresence(tab, { assignmentId: assignment.id, state: 'viewing' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(panels()).toHaveLength(heard);
  });
});
