import { RUBRIC_LIMITS, type Assignment, type Rubric } from '@classwave/shared';
import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { FormModal } from '../../components/FormModal';
import { IconButton } from '../../components/IconButton';
import { Input } from '../../components/Input';
import { Notice } from '../../components/Notice';
import { Select } from '../../components/Select';
import { Spinner } from '../../components/Spinner';
import { useGetAssignmentsQuery } from '../assignments/assignmentsApi';
import { useGetRubricQuery, useLazyGetRubricQuery, usePutRubricMutation } from './rubricsApi';
import './rubrics.css';

interface DraftLevel {
  key: number;
  title: string;
  points: string;
}
interface DraftCriterion {
  key: number;
  title: string;
  levels: DraftLevel[];
}

let keys = 0;
const level = (title = '', points = ''): DraftLevel => ({ key: ++keys, title, points });
const criterion = (): DraftCriterion => ({ key: ++keys, title: '', levels: [level(), level()] });
const draftOf = (rubric: Rubric | null): DraftCriterion[] =>
  rubric?.criteria.map((c) => ({
    key: ++keys,
    title: c.title,
    levels: c.levels.map((l) => level(l.title, String(l.points))),
  })) ?? [];

const pointsOf = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text) : null);
/** Each criterion's highest level, summed, as the server counts it. */
const totalOf = (criteria: DraftCriterion[]) =>
  criteria.reduce((sum, c) => sum + Math.max(0, ...c.levels.map((l) => pointsOf(l.points) ?? 0)), 0);

/**
 * The teacher writes an assignment's rubric (DESIGN §17): criteria, each with levels and points,
 * totalling the assignment's max points, or copies one from another assignment of theirs (the
 * server reads it only for its teacher). No criteria at all removes the rubric.
 */
export function RubricEditorModal({ assignment, onClose }: { assignment: Assignment; onClose: () => void }) {
  const stored = useGetRubricQuery(assignment.id);
  const [draft, setDraft] = useState<DraftCriterion[] | null>(null);
  const criteria = draft ?? draftOf(stored.data?.rubric ?? null);
  const [putRubric, { isLoading }] = usePutRubricMutation();
  const [readRubric, copying] = useLazyGetRubricQuery();
  const others = (useGetAssignmentsQuery().data ?? []).filter((a) => a.id !== assignment.id);
  const total = totalOf(criteria);
  const balanced = criteria.length === 0 || total === assignment.maxPoints;

  const edit = (change: (criteria: DraftCriterion[]) => DraftCriterion[]) => setDraft(change(criteria));
  const editCriterion = (key: number, change: (c: DraftCriterion) => DraftCriterion) =>
    edit((all) => all.map((c) => (c.key === key ? change(c) : c)));
  const editLevel = (c: DraftCriterion, key: number, change: Partial<DraftLevel>) =>
    editCriterion(c.key, (x) => ({
      ...x,
      levels: x.levels.map((l) => (l.key === key ? { ...l, ...change } : l)),
    }));

  async function copyFrom(id: string) {
    if (!id) return;
    try {
      const { rubric } = await readRubric(id).unwrap();
      if (!rubric) toast.info('That assignment has no rubric.');
      else setDraft(draftOf(rubric));
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Failed to read that rubric.'));
    }
  }

  async function save() {
    const body = criteria.map((c) => ({
      title: c.title.trim(),
      levels: c.levels.map((l) => ({ title: l.title.trim(), points: pointsOf(l.points) ?? -1 })),
    }));
    try {
      await putRubric({ assignmentId: assignment.id, criteria: body }).unwrap();
      toast.success(body.length ? 'Rubric saved' : 'Rubric removed');
      onClose();
    } catch (error) {
      toast.error(apiErrorMessage(error, 'Failed to save the rubric.'));
    }
  }

  return (
    <FormModal
      open
      size="lg"
      title="Rubric"
      description={`${assignment.title}: criteria and levels, totalling ${assignment.maxPoints} points.`}
      onClose={onClose}
      submitLabel={criteria.length === 0 && stored.data?.rubric ? 'Remove rubric' : 'Save rubric'}
      submitting={isLoading}
      submitDisabled={!balanced || stored.isLoading}
      onSubmit={save}
    >
      {stored.isLoading ? (
        <Spinner label="Loading the rubric" />
      ) : (
        <>
          {others.length > 0 && (
            <Select
              label="Copy from another assignment"
              value=""
              disabled={copying.isFetching}
              onChange={(event) => void copyFrom(event.target.value)}
            >
              <option value="">Choose an assignment…</option>
              {others.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.title} ({a.courseTitle})
                </option>
              ))}
            </Select>
          )}
          {criteria.map((c, i) => (
            <fieldset key={c.key} className="rubric-editor__criterion">
              <legend>Criterion {i + 1}</legend>
              <div className="rubric-editor__row">
                <Input
                  label="Title"
                  aria-label={`Criterion ${i + 1} title`}
                  required
                  maxLength={RUBRIC_LIMITS.title}
                  value={c.title}
                  onChange={(event) => editCriterion(c.key, (x) => ({ ...x, title: event.target.value }))}
                />
                <IconButton
                  label={`Remove criterion ${i + 1}`}
                  tone="danger"
                  icon={<Trash2 />}
                  onClick={() => edit((all) => all.filter((x) => x.key !== c.key))}
                />
              </div>
              {c.levels.map((l, j) => (
                <div key={l.key} className="rubric-editor__row rubric-editor__level">
                  <Input
                    label={`Level ${j + 1}`}
                    aria-label={`Criterion ${i + 1}, level ${j + 1} title`}
                    required
                    maxLength={RUBRIC_LIMITS.title}
                    value={l.title}
                    onChange={(event) => editLevel(c, l.key, { title: event.target.value })}
                  />
                  <Input
                    label="Points"
                    aria-label={`Criterion ${i + 1}, level ${j + 1} points`}
                    containerClassName="rubric-editor__points"
                    type="number"
                    inputMode="numeric"
                    required
                    min={0}
                    step={1}
                    value={l.points}
                    onChange={(event) => editLevel(c, l.key, { points: event.target.value })}
                  />
                  <IconButton
                    label={`Remove level ${j + 1} of criterion ${i + 1}`}
                    icon={<Trash2 />}
                    disabled={c.levels.length === 1}
                    onClick={() =>
                      editCriterion(c.key, (x) => ({ ...x, levels: x.levels.filter((y) => y.key !== l.key) }))
                    }
                  />
                </div>
              ))}
              {c.levels.length < RUBRIC_LIMITS.levels && (
                <Button
                  variant="secondary"
                  size="sm"
                  icon={<Plus />}
                  onClick={() => editCriterion(c.key, (x) => ({ ...x, levels: [...x.levels, level()] }))}
                >
                  Add level
                </Button>
              )}
            </fieldset>
          ))}
          {criteria.length < RUBRIC_LIMITS.criteria && (
            <Button
              variant="secondary"
              size="sm"
              icon={<Plus />}
              onClick={() => edit((all) => [...all, criterion()])}
            >
              Add criterion
            </Button>
          )}
          {criteria.length > 0 && (
            <Notice tone={balanced ? 'info' : 'warning'} className="rubric-editor__total">
              Total: {total} of {assignment.maxPoints} points
              {balanced ? '' : ': each criterion’s highest level must add up to the max points.'}
            </Notice>
          )}
        </>
      )}
    </FormModal>
  );
}
