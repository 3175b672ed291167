import { Type, type Static } from 'typebox';

/**
 * Attachments (DESIGN §18): what a file is called, how big it is and what its bytes are, for the
 * student's read-back, the teacher's list and the `file:ready` event. Uploads themselves speak tus 1.0.
 */

/** What a file is attached to. `post` and `comment` wait for conversations (DESIGN §19). */
export const FILE_PURPOSES = ['assignment', 'submission', 'feedback', 'post', 'comment'] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];

/** The longest file name kept (after path parts and control characters are taken out). */
export const FILE_NAME_MAX = 255;

export const FileSummary = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    /** The name the uploader gave, without path parts or control characters. */
    name: Type.String(),
    /** Bytes as stored (a JPEG's EXIF removed). */
    size: Type.Integer({ minimum: 0 }),
    /** The type sniffed from the bytes, never from the name (DESIGN §18). */
    type: Type.String(),
  },
  { additionalProperties: false },
);
export type FileSummary = Static<typeof FileSummary>;

/** `file:ready`: a file is stored whole, to those who may see it (DESIGN §18). */
export interface FileReadyEvent {
  file: FileSummary;
  purpose: FilePurpose;
  /** The assignment it belongs to (materials, a submission's files, feedback). */
  assignmentId: string;
  courseId: string;
  /** The student whose work or feedback it is; null on an assignment's materials. */
  studentId: string | null;
}

/**
 * `file:deleted`: its uploader took a file off (materials, feedback, a file of an answer not yet
 * handed in), to those who heard or could have heard its `file:ready`: lists drop it live.
 */
export interface FileDeletedEvent {
  fileId: string;
  purpose: FilePurpose;
  assignmentId: string;
  courseId: string;
  studentId: string | null;
}

/** `upload:progress`: a student's upload moving, to the course's teacher (at most every 500 ms an upload). */
export interface UploadProgressEvent {
  fileId: string;
  assignmentId: string;
  studentId: string;
  name: string;
  received: number;
  size: number;
}

/** GET /api/assignments/:id/files: what the caller may see of an assignment's own files (DESIGN §18). */
export const AssignmentFiles = Type.Object(
  {
    /** The teacher's materials, to every member of the course. */
    materials: Type.Array(FileSummary),
    /** Feedback files on one student's work: theirs once returned, or the student the teacher names. */
    feedback: Type.Array(FileSummary),
  },
  { additionalProperties: false },
);
export type AssignmentFiles = Static<typeof AssignmentFiles>;

export const AssignmentFilesQuery = Type.Object(
  {
    studentId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: "The course's teacher: whose feedback files to list. A student always gets their own.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type AssignmentFilesQuery = Static<typeof AssignmentFilesQuery>;
