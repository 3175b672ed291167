import type { RosterImportBody, RosterImportResult } from '@classwave/shared';
import { useState } from 'react';
import { toast } from 'sonner';
import { apiErrorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { Notice } from '../../components/Notice';
import { Textarea } from '../../components/Textarea';
import { RosterPreview } from './RosterPreview';
import { useImportRosterMutation } from './rosterImportApi';
import './RosterImport.css';

type Format = 'csv' | 'oneroster';

/**
 * Import a class list (DESIGN §20): paste or choose a CSV (name, e-mail) or a OneRoster export's
 * users.csv and enrollments.csv, see what the import would do, then invite the new students.
 */
export function RosterImportDialog({ courseId, onClose }: { courseId: string; onClose: () => void }) {
  const [format, setFormat] = useState<Format>('csv');
  const [csv, setCsv] = useState('');
  const [users, setUsers] = useState('');
  const [enrollments, setEnrollments] = useState('');
  const [preview, setPreview] = useState<RosterImportResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [importRoster, { isLoading }] = useImportRosterMutation();

  const body: RosterImportBody = format === 'csv' ? { csv } : { users, enrollments };
  const ready = format === 'csv' ? csv.trim() !== '' : users.trim() !== '' && enrollments.trim() !== '';

  /** Any change to the files makes the preview stale: check again before committing. */
  const edit = (set: (text: string) => void) => (text: string) => {
    set(text);
    setPreview(null);
    setProblem(null);
  };

  async function run(dryRun: boolean) {
    setProblem(null);
    try {
      const result = await importRoster({ courseId, body, dryRun }).unwrap();
      if (dryRun) return setPreview(result);
      const invited = result.add.length;
      toast.success(
        invited === 0
          ? 'Nothing new to invite.'
          : `Invited ${invited} student${invited === 1 ? '' : 's'} by e-mail.`,
      );
      onClose();
    } catch (error) {
      setProblem(apiErrorMessage(error, 'The roster could not be read.'));
    }
  }

  const changes = preview ? preview.add.length + preview.update.length : 0;
  return (
    <Modal
      open
      size="lg"
      onClose={onClose}
      title="Import roster"
      description="Students in the file who are not in the class yet get an e-mail with the class's join link. Importing the same file again changes nothing."
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          {preview ? (
            <Button loading={isLoading} disabled={changes === 0} onClick={() => void run(false)}>
              {changes === 0
                ? 'Nothing to change'
                : `Invite ${preview.add.length} and update ${preview.update.length}`}
            </Button>
          ) : (
            <Button loading={isLoading} disabled={!ready} onClick={() => void run(true)}>
              Check the file
            </Button>
          )}
        </>
      }
    >
      <fieldset className="roster-import__format">
        <legend>The file</legend>
        <label>
          <input type="radio" checked={format === 'csv'} onChange={() => setFormat('csv')} /> A CSV with name
          and email columns
        </label>
        <label>
          <input type="radio" checked={format === 'oneroster'} onChange={() => setFormat('oneroster')} /> A
          OneRoster export (users.csv and enrollments.csv)
        </label>
      </fieldset>
      {format === 'csv' ? (
        <CsvSource label="CSV" value={csv} onChange={edit(setCsv)} />
      ) : (
        <>
          <CsvSource label="users.csv" value={users} onChange={edit(setUsers)} />
          <CsvSource label="enrollments.csv" value={enrollments} onChange={edit(setEnrollments)} />
        </>
      )}
      {problem && (
        <Notice tone="warning">
          <p>{problem}</p>
        </Notice>
      )}
      {preview && <RosterPreview result={preview} />}
    </Modal>
  );
}

/** A CSV pasted, or read from a chosen file into the same box (so it can be checked and fixed). */
function CsvSource({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (text: string) => void;
}) {
  return (
    <div className="roster-import__source">
      <Textarea
        label={label}
        rows={5}
        value={value}
        spellCheck={false}
        placeholder={label === 'CSV' ? 'name,email\nAda Lovelace,ada@school.example' : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      <label className="roster-import__file">
        Choose {label === 'CSV' ? 'a CSV file' : label}
        <input
          type="file"
          accept=".csv,text/csv"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void file.text().then(onChange);
          }}
        />
      </label>
    </div>
  );
}
