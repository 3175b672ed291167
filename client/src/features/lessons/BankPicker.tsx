import type { BankQuestion } from '@classwave/shared';
import { Library, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/Button';
import { IconButton } from '../../components/IconButton';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/Spinner';
import { tried } from '../conversations/tried';
import { KIND_LABELS } from './answerText';
import { useGetQuestionBankQuery, useRemoveFromBankMutation } from './lessonsApi';

/**
 * "From the bank": the course's saved questions (DESIGN §21), newest first. Picking one puts it in
 * the composer, where the teacher may change it before pushing.
 */
export function BankPicker({ courseId, onPick }: { courseId: string; onPick: (q: BankQuestion) => void }) {
  const [open, setOpen] = useState(false);
  const { data: bank, isLoading } = useGetQuestionBankQuery(courseId, { skip: !open });
  const [remove] = useRemoveFromBankMutation();
  return (
    <>
      <Button variant="secondary" size="sm" icon={<Library />} onClick={() => setOpen(true)}>
        From the bank
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="From the question bank"
        description="Questions saved in this course. Pick one to put it in the composer."
      >
        {isLoading ? (
          <Spinner label="Loading the bank" />
        ) : !bank?.length ? (
          <p>No saved questions yet: write one and choose “Save to the bank”.</p>
        ) : (
          <ul className="lesson-bank" aria-label="Saved questions">
            {bank.map((q) => (
              <li key={q.id} className="lesson-bank__item">
                <button
                  type="button"
                  className="lesson-bank__pick"
                  onClick={() => {
                    onPick(q);
                    setOpen(false);
                  }}
                >
                  <span className="lesson-bank__prompt">{q.prompt}</span>
                  <span className="lesson-bank__kind">{KIND_LABELS[q.kind]}</span>
                </button>
                <IconButton
                  label={`Remove “${q.prompt}” from the bank`}
                  icon={<Trash2 />}
                  onClick={() =>
                    void tried(
                      remove({ courseId, questionId: q.id }).unwrap(),
                      'The question could not be removed.',
                    )
                  }
                />
              </li>
            ))}
          </ul>
        )}
      </Modal>
    </>
  );
}
