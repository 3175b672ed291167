import { FileList } from './FileList';
import { useGetAssignmentFilesQuery } from './filesApi';

/**
 * What a student sees of an assignment's own files (DESIGN §18): its teacher's materials, or their
 * feedback files once the grade is returned. Nothing when there are none.
 */
export function AssignmentFileList({
  assignmentId,
  kind,
  label,
}: {
  assignmentId: string;
  kind: 'materials' | 'feedback';
  label: string;
}) {
  const { data } = useGetAssignmentFilesQuery({ assignmentId });
  const files = data?.[kind] ?? [];
  if (files.length === 0) return null;
  return (
    <section className="attachments" aria-label={label}>
      <h3 className="attachments__title">{label}</h3>
      <FileList files={files} label={label} />
    </section>
  );
}
