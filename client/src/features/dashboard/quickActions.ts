import type { Role } from '@classwave/shared';
import {
  BookOpen,
  Bot,
  CalendarPlus,
  ClipboardList,
  ClipboardPlus,
  BookPlus,
  UserPlus,
  Video,
  type LucideIcon,
} from 'lucide-react';

export interface QuickAction {
  label: string;
  description: string;
  to: string;
  /** Router state for the target page, e.g. a flag that opens its create dialog. */
  state?: Record<string, true>;
  icon: LucideIcon;
}

const askAssistant: QuickAction = {
  label: 'Ask AI Assistant',
  description: 'Get help with study questions',
  to: '/chatbot',
  icon: Bot,
};

/** The Quick Actions of spec §2, per role; both roles can ask the assistant. */
export const QUICK_ACTIONS: Record<Role, readonly QuickAction[]> = {
  teacher: [
    {
      label: 'Create New Course',
      description: 'Set up a course for your students',
      to: '/courses',
      state: { openCreateCourse: true },
      icon: BookPlus,
    },
    {
      label: 'Add Assignment',
      description: 'Give one of your courses new work',
      to: '/assignments',
      state: { openCreateAssignment: true },
      icon: ClipboardPlus,
    },
    { label: 'Schedule Class', description: 'Plan a live session', to: '/live-classes', icon: CalendarPlus },
    askAssistant,
  ],
  student: [
    // "See every course on offer" promised a catalogue; the page lists the student's own classes.
    { label: 'Browse Courses', description: 'Open the classes you are in', to: '/courses', icon: BookOpen },
    {
      label: 'Join a Class',
      description: 'Type the code your teacher gave you',
      to: '/courses',
      state: { openJoinClass: true },
      icon: UserPlus,
    },
    {
      label: 'View Assignments',
      description: 'Check what is due and submit',
      to: '/assignments',
      icon: ClipboardList,
    },
    {
      label: 'Join Live Class',
      description: 'Meet your class in real time',
      to: '/live-classes',
      icon: Video,
    },
    askAssistant,
  ],
};
