import { stringify } from 'csv-stringify/sync';
import { studentTotals, type Gradebook } from '@classwave/shared';

/** A spreadsheet reads a cell starting with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text a spreadsheet shows as text: a leading formula character gets a `'` before it. */
export const harmless = (cell: string) => (FORMULA_START.test(cell) ? `'${cell}` : cell);

/**
 * The gradebook as CSV (DESIGN §13): UTF-8 with a BOM (so Excel reads the names right), columns
 * `Student Name, Student Email, <Title> (/<max>)…, [<Category> (<weight>%)…,] Total Points, Total
 * Possible, Percent`. A cell holds the grade, `Excused`, or nothing; a category column its percent;
 * totals as the screen shows them (shared studentTotals: Percent weighted when there are categories).
 */
export function gradebookCsv(book: Gradebook): string {
  const header = [
    'Student Name',
    'Student Email',
    ...book.assignments.map((a) => `${a.title} (/${a.maxPoints})`),
    ...book.categories.map((c) => `${c.name} (${c.weight}%)`),
    'Total Points',
    'Total Possible',
    'Percent',
  ];
  const cells = new Map(book.cells.map((c) => [`${c.assignmentId}:${c.studentId}`, c]));
  const rows = book.students.map((student) => {
    const totals = studentTotals(book, student.id);
    return [
      student.fullName,
      student.email,
      ...book.assignments.map((a) => {
        const cell = cells.get(`${a.id}:${student.id}`);
        if (cell?.grade !== null && cell?.grade !== undefined) return String(cell.grade);
        if (cell?.assigned === false) return 'Not assigned';
        return cell?.status === 'excused' ? 'Excused' : '';
      }),
      ...totals.categories.map((c) => (c.percent === null ? '' : String(c.percent))),
      String(totals.points),
      String(totals.possible),
      totals.percent === null ? '' : String(totals.percent),
    ];
  });
  return stringify(
    [header, ...rows].map((row) => row.map(harmless)),
    { bom: true, record_delimiter: 'windows' },
  );
}
