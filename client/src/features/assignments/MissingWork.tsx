import type { Assignment, PersonRef, Submission } from '@classwave/shared';
import { Avatar } from '../../components/Avatar';
import { Badge } from '../../components/Badge';
import { serverNow } from '../../api/serverClock';
import { useGetMembersQuery } from '../classes/classesApi';
import { useGetGradebookQuery } from '../grading/gradingApi';
import { GradeForm } from './GradeForm';
import { ExtendControl } from './ExtendControl';

/** One student who has handed nothing in: their grade for missing work, if given (DESIGN §17). */
interface Missing {
  student: PersonRef;
  grade: Submission | null;
}

/**
 * The students of the course who have not submitted, after the submissions: every active member
 * with no submission, each with a grading form, so a grade (a 0, say) can be given for missing
 * work (DESIGN §17). `rows` is the assignment's submissions list, whose rows with no `submittedAt`
 * are grades already given for missing work.
 */
export function MissingWork({ assignment, rows }: { assignment: Assignment; rows: readonly Submission[] }) {
  // The roster, for who has no row at all; while it loads (or if it cannot), the graded ones show.
  const { data: roster } = useGetMembersQuery(assignment.courseId);
  // Who is excused (the gradebook knows): excused work takes no grade until the excuse is taken back.
  const { data: book } = useGetGradebookQuery(assignment.courseId);
  const cells = (book?.cells ?? []).filter((c) => c.assignmentId === assignment.id);
  // Students it is not for (DESIGN §20) owe nothing: not listed at all.
  const notAssigned = new Set(cells.filter((c) => c.assigned === false).map((c) => c.studentId));
  const excused = new Set(
    cells.filter((c) => c.status === 'excused' && c.assigned !== false).map((c) => c.studentId),
  );
  // Each student's own due date, where they have one.
  const extendedTo = new Map(cells.flatMap((c) => (c.dueDate ? [[c.studentId, c.dueDate] as const] : [])));
  const withRow = new Set(rows.map((s) => s.studentId));
  const missing: Missing[] = [
    ...rows.filter((s) => s.submittedAt === null).map((s) => ({ student: s.student, grade: s })),
    ...(roster ?? [])
      .filter((m) => m.status === 'active' && !withRow.has(m.student.id) && !notAssigned.has(m.student.id))
      .map((m) => ({ student: { id: m.student.id, fullName: m.student.fullName }, grade: null })),
  ].sort((a, b) => a.student.fullName.localeCompare(b.student.fullName));
  if (missing.length === 0) return null;
  // The server's clock, as every status is (a device set wrong would say Missing early).
  const now = serverNow().getTime();
  const pastDue = new Date(assignment.dueDate).getTime() < now;
  const isLater = (due: string | undefined) => due !== undefined && new Date(due).getTime() >= now;

  return (
    <section className="missing-work" aria-labelledby="missing-work-title">
      <h3 id="missing-work-title" className="missing-work__title">
        Not submitted ({missing.length})
      </h3>
      <p className="missing-work__note">
        A grade given here counts for missing work. If the student submits while the assignment is still open,
        their work joins this grade.
      </p>
      <ul className="submissions" aria-label="Not submitted">
        {missing.map(({ student, grade }) => (
          <li key={student.id} className="submission">
            <div className="submission__head">
              <Avatar name={student.fullName} />
              <div className="submission__who">
                <p className="submission__name">{student.fullName}</p>
                <p className="submission__time">
                  {excused.has(student.id)
                    ? 'Excused'
                    : pastDue && !isLater(extendedTo.get(student.id))
                      ? 'Missing'
                      : 'Not submitted yet'}
                </p>
              </div>
              <div className="submission__badges">
                {grade?.grade != null ? (
                  <Badge tone="success">
                    Grade: {grade.grade}/{assignment.maxPoints}
                  </Badge>
                ) : (
                  <Badge tone="neutral">No submission</Badge>
                )}
                {grade?.held && <Badge tone="warning">Held</Badge>}
              </div>
            </div>
            {!excused.has(student.id) && (
              <ExtendControl
                assignment={assignment}
                student={student}
                extendedTo={extendedTo.get(student.id)}
              />
            )}
            {excused.has(student.id) ? (
              <p className="missing-work__note">
                Excused: this work counts nowhere. To grade it, take the excuse back in the gradebook.
              </p>
            ) : (
              <GradeForm
                key={student.id}
                submission={grade}
                student={student}
                assignmentId={assignment.id}
                maxPoints={assignment.maxPoints}
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
