import type { RosterImportResult } from '@classwave/shared';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** What the import would do: each list with its people, names shown as text whatever they look like. */
export function RosterPreview({ result }: { result: RosterImportResult }) {
  return (
    <section className="roster-import__preview" aria-label="What the import would do">
      <p role="status">
        {plural(result.add.length, 'student')} to invite, {plural(result.update.length, 'invitation')} to
        update, {result.unchanged} unchanged.
      </p>
      <PeopleList title="To invite" people={result.add.map((p) => `${p.fullName} <${p.email}>`)} />
      <PeopleList
        title="To update"
        people={result.update.map((p) => `${p.previousName} → ${p.fullName} <${p.email}>`)}
      />
      <PeopleList
        title="Not in the file (they stay: remove students from the roster yourself)"
        people={result.remove.map(
          (p) => `${p.fullName} <${p.email}>${p.status === 'invited' ? ' (invited)' : ''}`,
        )}
      />
      <PeopleList
        title="Duplicates (the first row counts)"
        people={result.duplicates.map((d) => `${d.email}: rows ${d.rows.join(', ')}`)}
      />
      <PeopleList title="Rows left out" people={result.skipped.map((s) => `Row ${s.row}: ${s.reason}`)} />
    </section>
  );
}

/** A heading and a list, at most 50 shown (a whole school's file would bury the button). */
function PeopleList({ title, people }: { title: string; people: string[] }) {
  if (people.length === 0) return null;
  return (
    <div className="roster-import__group">
      <h3>
        {title} ({people.length})
      </h3>
      <ul>
        {people.slice(0, 50).map((line, i) => (
          <li key={i}>{line}</li>
        ))}
        {people.length > 50 && <li>… and {people.length - 50} more</li>}
      </ul>
    </div>
  );
}
