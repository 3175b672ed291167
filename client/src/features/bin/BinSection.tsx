import { describeContents, type BinItem } from '@classwave/shared';
import { RotateCcw, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { toast } from 'sonner';
import { apiErrorBody } from '../../api/errors';
import { Button } from '../../components/Button';
import { formatListDate } from '../../components/dates';
import { useGetBinQuery, useGetCourseBinQuery, useRestoreFromBinMutation } from './binApi';
import './BinSection.css';

/**
 * A teacher's bin (DESIGN §17): each deleted course or assignment with what it holds, when it is
 * deleted for good, and Restore. Shown only while something is in it.
 */
export function BinSection({ items, title = 'Bin' }: { items: BinItem[] | undefined; title?: string }) {
  const headingId = useId();
  const [restore, { isLoading, originalArgs }] = useRestoreFromBinMutation();
  if (!items || items.length === 0) return null;

  async function handleRestore(item: BinItem) {
    try {
      await restore({ kind: item.kind, id: item.id }).unwrap();
      toast.success(`“${item.title}” restored`);
    } catch (error) {
      toast.error(`Could not restore “${item.title}”`, {
        description: apiErrorBody(error)?.message,
      });
    }
  }

  return (
    <section className="bin-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="bin-section__title">
        <Trash2 aria-hidden="true" size={18} />
        {title}
      </h2>
      <p className="bin-section__hint">Deleted items can be restored until they are deleted for good.</p>
      <ul className="bin-section__list">
        {items.map((item) => (
          <li key={`${item.kind}:${item.id}`} className="bin-section__item" aria-label={item.title}>
            <div>
              <p className="bin-section__name">
                {item.title}
                <span className="bin-section__kind">
                  {item.kind === 'course' ? 'Course' : item.courseTitle}
                </span>
              </p>
              <p className="bin-section__meta">
                {describeContents(item.contents) ?? 'No student work'} · deleted for good on{' '}
                {formatListDate(item.purgeAt)}
              </p>
            </div>
            <Button
              variant="secondary"
              size="sm"
              icon={<RotateCcw />}
              loading={isLoading && originalArgs?.id === item.id}
              onClick={() => void handleRestore(item)}
            >
              Restore
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A course's bin on its page, for its teacher: its deleted assignments. */
export function CourseBin({ courseId }: { courseId: string }) {
  const { data } = useGetCourseBinQuery(courseId);
  return <BinSection items={data?.items} />;
}

/** The teacher's whole bin on the Courses page: where a deleted course is found again. */
export function TeacherBin() {
  const { data } = useGetBinQuery();
  return <BinSection items={data?.items} />;
}
