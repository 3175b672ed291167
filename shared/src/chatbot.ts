/**
 * The AI Learning Assistant's replies: scripted, chosen by keyword (spec §9), no AI call.
 * Topics are tried in this order; the first whose keywords appear in the question answers.
 */
export const CHAT_TOPICS = [
  {
    topic: 'courses',
    keywords: ['course', 'class'],
    answer:
      'You can find all your courses on the Courses page. Open a course to see its description, its instructor and every assignment with its due date. Live classes will appear on your dashboard once they are scheduled.',
  },
  {
    topic: 'assignments',
    // "What is due this week?" fell through to "not sure": the greeting offers help with exactly that.
    keywords: ['assignment', 'homework', 'due', 'deadline', 'submit', 'grade'],
    answer:
      'Open the Assignments page to see everything that is due, with a badge for each: Active, Overdue, Submitted or Graded; the Calendar shows the week at a glance. Choose Submit on an assignment, type your answer and send it — your teacher sees it straight away. Your grade appears once your teacher returns it: some teachers return each grade as they give it, others hold them until the whole class is marked.',
  },
  {
    topic: 'study',
    keywords: ['study', 'learn'],
    answer:
      'A few strategies that work: space your practice over several short sessions, test yourself instead of re-reading, explain ideas in your own words, and mix different kinds of problems. Start assignments early so there is time to ask questions.',
  },
  {
    topic: 'technical',
    keywords: ['technical', 'problem', 'issue'],
    answer:
      "Sorry you are having trouble. Try reloading the page and checking your internet connection. If you were signed out, sign in again. If the problem continues, tell your teacher or your school's IT support what you were doing when it happened.",
  },
  {
    topic: 'greeting',
    keywords: ['hello', 'hi', 'hey'],
    answer:
      'Hello! I can help with your courses, assignments, study strategies and technical problems. What would you like to know?',
  },
] as const;

export const CHAT_FALLBACK =
  "I'm not sure I understood that. I can help with courses and classes, assignments and homework, study strategies, and technical problems — try asking about one of those.";

/** The five quick questions shown while only the greeting is on screen (spec §2). */
export const QUICK_QUESTIONS = [
  'How do I submit an assignment?',
  'What are good study strategies?',
  'How can I join a live class?',
  "I'm having technical issues",
  'Tell me about course materials',
] as const;

export const CHAT_QUESTION_MAX_LENGTH = 1000;

/** Picks the scripted answer for a question: whole words, any case, prefixes allowed ("courses", "learning"). */
export function chatReply(question: string): string {
  const text = question.toLowerCase();
  for (const { keywords, answer } of CHAT_TOPICS) {
    if (keywords.some((word) => new RegExp(`\\b${word}`, 'u').test(text))) return answer;
  }
  return CHAT_FALLBACK;
}
