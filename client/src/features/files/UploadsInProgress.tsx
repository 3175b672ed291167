import { useAppSelector } from '../../app/hooks';
import { selectUploadsOf, uploadsSummary } from './uploadsSlice';
import './attachments.css';

/** What students are uploading to an assignment right now, live: "Uploading now: 2 files, 45 %". */
export function UploadsInProgress({ assignmentId }: { assignmentId: string }) {
  const uploads = useAppSelector((state) => selectUploadsOf(state, assignmentId));
  const summary = uploadsSummary(uploads);
  if (!summary) return null;
  return (
    <p className="uploads-now" role="status">
      Uploading now: {summary}
    </p>
  );
}
