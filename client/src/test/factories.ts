// Factories for component tests (not part of the app bundle). Each test builds its own data.
import type {
  Assignment,
  Comment,
  Course,
  LiveEvent,
  LiveEventType,
  Notification,
  OwnSubmission,
  PersonRef,
  Post,
  Profile,
  Session,
  Submission,
} from '@classwave/shared';
import type { AuthState } from '../features/auth/authSlice';
import type { RosterMember } from '../features/classes/rosterCache';

let sequence = 0;
/** A fresh uuid-shaped id. */
export const nextId = () => `00000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`;

const DAY_MS = 24 * 3600 * 1000;
/** An ISO time `days` from now (negative: in the past). */
export const daysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

export function createProfile(overrides: Partial<Profile> = {}): Profile {
  return { id: nextId(), fullName: 'Ada Lovelace', role: 'student', ...overrides };
}

export function createSession(overrides: Partial<Session> = {}): Session {
  const expiresIn = 900;
  return {
    accessToken: `token-${++sequence}`,
    tokenType: 'bearer',
    expiresIn,
    expiresAt: Math.floor(Date.now() / 1000) + expiresIn,
    user: {
      id: nextId(),
      email: 'ada@example.org',
      emailConfirmedAt: '2026-01-05T09:00:00.000Z',
      createdAt: '2026-01-05T08:55:00.000Z',
    },
    ...overrides,
  };
}

/** Auth state of a signed-in user with a loaded profile. */
export function signedInAuth(profile: Partial<Profile> = {}): AuthState {
  const session = createSession();
  return { status: 'signedIn', session, profile: createProfile({ id: session.user.id, ...profile }) };
}

export const signedOutAuth = (): AuthState => ({ status: 'signedOut', session: null, profile: null });
export const loadingAuth = (): AuthState => ({ status: 'loading', session: null, profile: null });

/** The person joined to a record: the one given, else one with the given id (or a new one). */
const personOf = (person: PersonRef | undefined, id: string | undefined, fullName: string): PersonRef =>
  person ?? { id: id ?? nextId(), fullName };

export function createCourse(overrides: Partial<Course> = {}): Course {
  const teacher = personOf(overrides.teacher, overrides.teacherId, 'Grace Hopper');
  const n = ++sequence;
  return {
    id: nextId(),
    title: `Course ${n}`,
    code: `CS${100 + n}`,
    description: 'A course about things worth knowing.',
    createdAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
    joinCode: null,
    archivedAt: null,
    joinEnabled: true,
    missingCountsAsZero: true,
    ...overrides,
    teacherId: teacher.id,
    teacher,
  };
}

export function createAssignment(overrides: Partial<Assignment> = {}): Assignment {
  const n = ++sequence;
  return {
    id: nextId(),
    title: `Assignment ${n}`,
    description: '',
    dueDate: daysFromNow(7),
    maxPoints: 100,
    courseId: nextId(),
    courseTitle: 'Introduction to Biology',
    createdAt: daysFromNow(-1),
    submission: null,
    submissionCount: null,
    needsGrading: null,
    status: null,
    gradeRelease: 'auto',
    closesAtDue: false,
    categoryId: null,
    ...overrides,
  };
}

/** Handed in: a submission's time is set (a grade for missing work has none, DESIGN §17). */
type HandedIn<T> = T & { submittedAt: string };

export function createOwnSubmission(
  overrides: Partial<HandedIn<OwnSubmission>> = {},
): HandedIn<OwnSubmission> {
  return {
    id: nextId(),
    submittedAt: daysFromNow(-1),
    grade: null,
    feedback: null,
    gradedAt: null,
    returnedAt: null,
    late: null,
    ...overrides,
  };
}

export function createSubmission(overrides: Partial<HandedIn<Submission>> = {}): HandedIn<Submission> {
  const student = personOf(overrides.student, overrides.studentId, 'Ada Lovelace');
  const grade = overrides.grade ?? null;
  const returnedAt = overrides.returnedAt ?? null;
  return {
    id: nextId(),
    assignmentId: nextId(),
    content: 'My answer.',
    submittedAt: daysFromNow(-1),
    grade: null,
    feedback: null,
    gradedAt: null,
    version: 0,
    late: null,
    returnedAt: null,
    // As the server works it out for a grade never changed after its return.
    held: grade !== null && returnedAt === null,
    gradedBy: null,
    rubricScores: null,
    ...overrides,
    studentId: student.id,
    student,
  };
}

/** A roster row (DESIGN §11) of an active student unless told otherwise. */
export function createMember(overrides: Partial<RosterMember> = {}): RosterMember {
  return {
    courseId: nextId(),
    student: { id: nextId(), fullName: 'Ada Lovelace', email: 'ada@example.org' },
    status: 'active',
    joinedAt: daysFromNow(-2),
    endedAt: null,
    submissionCount: 0,
    ...overrides,
  };
}

export function createNotification(overrides: Partial<Notification> = {}): Notification {
  const at = overrides.updatedAt ?? new Date().toISOString();
  return {
    id: nextId(),
    kind: 'grade_returned',
    title: 'Your work was graded: Lab report',
    body: '9 / 10',
    link: '/assignments',
    courseId: null,
    assignmentId: null,
    count: 1,
    createdAt: at,
    updatedAt: at,
    readAt: null,
    alert: true,
    ...overrides,
  };
}

export function createPost(overrides: Partial<Post> = {}): Post {
  const at = overrides.createdAt ?? new Date(Date.UTC(2026, 10, 1) + ++sequence * 60_000).toISOString();
  return {
    id: nextId(),
    courseId: nextId(),
    author: { id: nextId(), fullName: 'Grace Hopper' },
    text: 'Lab on Friday.',
    pinned: false,
    commentsOff: false,
    publishAt: null,
    publishedAt: at,
    createdAt: at,
    editedAt: null,
    commentCount: 0,
    seenByMe: true,
    seen: null,
    files: [],
    ...overrides,
  };
}

export function createComment(overrides: Partial<Comment> = {}): Comment {
  return {
    id: nextId(),
    courseId: nextId(),
    postId: null,
    thread: null,
    author: { id: nextId(), fullName: 'Ada Lovelace' },
    text: 'A question.',
    deleted: false,
    createdAt: new Date(Date.UTC(2026, 10, 1) + ++sequence * 60_000).toISOString(),
    deletedAt: null,
    ...overrides,
  };
}

let eventId = 0;
/** A live event as the socket delivers it, with the next id. */
export const liveEvent = <T extends LiveEventType>(type: T, data: LiveEvent<T>['data']): LiveEvent<T> => ({
  id: ++eventId,
  type,
  at: new Date().toISOString(),
  data,
});
