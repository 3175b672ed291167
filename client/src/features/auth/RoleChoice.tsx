import type { Role } from '@classwave/shared';
import { GraduationCap, Presentation } from 'lucide-react';
import { useId } from 'react';
import './RoleChoice.css';

const options: { role: Role; label: string; description: string; Icon: typeof GraduationCap }[] = [
  { role: 'student', label: 'Student', description: 'Join courses and hand in work', Icon: GraduationCap },
  { role: 'teacher', label: 'Teacher', description: 'Run courses and grade work', Icon: Presentation },
];

/** Student or Teacher, as a group of native radio buttons drawn as two cards. */
export function RoleChoice({ value, onChange }: { value: Role; onChange: (role: Role) => void }) {
  const name = useId();
  return (
    <fieldset className="role-choice">
      <legend className="role-choice__legend">I am a</legend>
      <div className="role-choice__options">
        {options.map(({ role, label, description, Icon }) => (
          <label key={role} className="role-choice__option">
            {/* Named by the role alone; the line under it is its description. */}
            <input
              type="radio"
              name={name}
              value={role}
              checked={value === role}
              onChange={() => onChange(role)}
              className="role-choice__input"
              aria-labelledby={`${name}-${role}-label`}
              aria-describedby={`${name}-${role}-description`}
            />
            <span className="role-choice__card">
              <Icon className="role-choice__icon" aria-hidden="true" size={22} />
              <span id={`${name}-${role}-label`} className="role-choice__label">
                {label}
              </span>
              <span id={`${name}-${role}-description`} className="role-choice__description">
                {description}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
