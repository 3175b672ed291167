import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Field } from './Field';
import { Select } from './Select';
import { Textarea } from './Textarea';

describe('Field', () => {
  it("binds its label to the control it renders and keeps the control's own description last", () => {
    render(
      <Field props={{ label: 'Points', hint: 'Whole numbers.', 'aria-describedby': 'max' }}>
        {(control) => (
          <>
            <input {...control} type="number" />
            <span id="max">/ 100</span>
          </>
        )}
      </Field>,
    );
    expect(screen.getByLabelText('Points')).toHaveAccessibleDescription('Whole numbers. / 100');
  });

  it('keeps an id it is given', () => {
    render(<Field props={{ label: 'Title', id: 'title' }}>{(control) => <input {...control} />}</Field>);
    expect(screen.getByLabelText('Title')).toHaveAttribute('id', 'title');
  });
});

describe('Select', () => {
  it('is a labelled select with its options, marked invalid and described by its error', () => {
    render(
      <Select label="Course" error="Please select a course." hint="Only your own courses.">
        <option value="">Select a course</option>
      </Select>,
    );
    const select = screen.getByRole('combobox', { name: 'Course' });
    expect(select).toHaveAttribute('aria-invalid', 'true');
    expect(select).toHaveAccessibleDescription('Only your own courses. Please select a course.');
    expect(screen.getByRole('option', { name: 'Select a course' })).toBeInTheDocument();
  });
});

describe('Textarea', () => {
  it('is a labelled text area of four rows unless told otherwise, neither invalid nor described', () => {
    render(<Textarea label="Description" />);
    const textarea = screen.getByRole('textbox', { name: 'Description' });
    expect(textarea).toHaveAttribute('rows', '4');
    expect(textarea).not.toHaveAttribute('aria-invalid');
    expect(textarea).not.toHaveAttribute('aria-describedby');
  });

  it('is described by its hint', () => {
    render(<Textarea label="Your Submission" rows={8} hint="You can submit once." />);
    const textarea = screen.getByRole('textbox', { name: 'Your Submission' });
    expect(textarea).toHaveAttribute('rows', '8');
    expect(textarea).toHaveAccessibleDescription('You can submit once.');
  });
});
