import type { SeenBy as SeenFigures } from '@classwave/shared';
import { Eye } from 'lucide-react';
import { useId, useState } from 'react';

/** The teacher's "Seen by N of M", with the names behind it on click. */
export function SeenBy({ seen }: { seen: SeenFigures }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const label = `Seen by ${seen.count} of ${seen.of}`;
  if (seen.count === 0) return <p className="seen-by">{label}</p>;
  return (
    <div className="seen-by">
      <button
        type="button"
        className="seen-by__toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
      >
        <Eye aria-hidden="true" size={16} />
        {label}
      </button>
      <ul id={listId} className="seen-by__names" hidden={!open}>
        {seen.by.map((person) => (
          <li key={person.id}>{person.fullName}</li>
        ))}
      </ul>
    </div>
  );
}
