import { assignmentAverage, studentTotals, type Gradebook } from '@classwave/shared';
import { useRef } from 'react';
import { cellKey } from './gradebookCells';
import { GradebookCellView } from './GradebookCell';
import type { GradebookGridState } from './useGradebookGrid';
import { useScrollEdges } from './useScrollEdges';

/**
 * The gradebook's table: a row per student with their total, a column per assignment with its
 * average, and the cells `grid` moves through and edits.
 */
export function GradebookGrid({ gradebook, grid }: { gradebook: Gradebook; grid: GradebookGridState }) {
  const { course, students, assignments, categories } = gradebook;
  const { editing } = grid;
  const categoryName = new Map(categories.map((c) => [c.id, c.name]));
  const scroll = useRef<HTMLDivElement>(null);
  // The student and Total columns stay put; a shadow says more assignments lie to either side.
  const edges = useScrollEdges(scroll);
  return (
    <div
      ref={scroll}
      className="gradebook__scroll"
      data-more-left={edges.left || undefined}
      data-more-right={edges.right || undefined}
    >
      <table
        ref={grid.tableRef}
        className="gradebook"
        role="grid"
        aria-describedby="gradebook-help"
        aria-label={`Gradebook for ${course.title}`}
      >
        <thead>
          <tr>
            <th scope="col" className="gradebook__corner">
              Student
            </th>
            {assignments.map((assignment) => (
              <th key={assignment.id} scope="col" className="gradebook__assignment">
                <span className="gradebook__assignment-title">{assignment.title}</span>
                <span className="gradebook__assignment-max">/{assignment.maxPoints}</span>
                {categories.length > 0 && (
                  <span className="gradebook__assignment-category">
                    {(assignment.categoryId && categoryName.get(assignment.categoryId)) ?? 'No category'}
                  </span>
                )}
              </th>
            ))}
            <th scope="col" className="gradebook__total-head">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {students.map((student, row) => {
            const totals = studentTotals(gradebook, student.id);
            return (
              <tr key={student.id}>
                <th scope="row" className="gradebook__student">
                  <span className="gradebook__student-name">{student.fullName}</span>
                  <span className="gradebook__student-email" title={student.email}>
                    {student.email}
                  </span>
                </th>
                {assignments.map((assignment, col) => {
                  const cell = grid.cellOf(student, assignment);
                  const key = cellKey(student.id, assignment.id);
                  return (
                    <GradebookCellView
                      key={assignment.id}
                      cell={cell}
                      assignment={assignment}
                      studentName={student.fullName}
                      active={grid.isActive(row, col)}
                      editing={editing?.key === key}
                      selectAll={editing?.selectAll ?? false}
                      draft={editing?.key === key ? editing.draft : ''}
                      save={grid.saves.get(key)}
                      onDraft={grid.setDraft}
                      onFocus={() => grid.activate(row, col)}
                      onKeyDown={grid.onCellKeyDown}
                      onEditKeyDown={grid.onEditKeyDown}
                      onBlurEdit={() => grid.commitEdit(null)}
                      onKeepMine={() => grid.keepMine(cell, assignment)}
                      onUseTheirs={() => grid.takeTheirs(cell)}
                    />
                  );
                })}
                <td role="gridcell" className="gradebook__total">
                  {totals.possible === 0 ? (
                    '–'
                  ) : categories.length > 0 ? (
                    // Weighted: the percent is the total; the points (which it does not follow) come second.
                    <>
                      {totals.percent === null ? '–' : `${totals.percent}%`}
                      <span className="gradebook__percent">
                        {' '}
                        ({totals.points}/{totals.possible} pts)
                      </span>
                    </>
                  ) : (
                    <>
                      {totals.points}/{totals.possible}
                      <span className="gradebook__percent"> ({totals.percent}%)</span>
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" className="gradebook__student">
              Average
            </th>
            {assignments.map((assignment) => {
              const average = assignmentAverage(gradebook, assignment.id);
              return (
                <td role="gridcell" key={assignment.id} className="gradebook__average">
                  {average === null ? '–' : `${average}/${assignment.maxPoints}`}
                </td>
              );
            })}
            <td role="gridcell" className="gradebook__average" />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
