/** Sample courses that read like a real school's; codes are two capital letters and 100–499. */
export const SAMPLE_COURSES = [
  {
    prefix: 'BI',
    title: 'Introduction to Biology',
    description:
      'Cells, genetics and ecosystems: how living things work, grow and depend on each other, with weekly lab write-ups.',
  },
  {
    prefix: 'CS',
    title: 'Foundations of Computer Science',
    description:
      'Algorithms, data and problem solving in Python, from first programs to a small project of your own.',
  },
  {
    prefix: 'HI',
    title: 'Modern World History',
    description:
      'The events and ideas that shaped the twentieth century, read through primary sources and class debates.',
  },
  {
    prefix: 'MA',
    title: 'Algebra II',
    description:
      'Functions, polynomials, exponentials and logarithms, with an emphasis on modelling real situations.',
  },
  {
    prefix: 'EN',
    title: 'Creative Writing Workshop',
    description:
      'Short fiction and poetry: drafting, giving and using feedback, and revising toward a final portfolio.',
  },
  {
    prefix: 'CH',
    title: 'Chemistry Fundamentals',
    description:
      'Atoms, bonding, reactions and stoichiometry, with safe hands-on experiments every other week.',
  },
  {
    prefix: 'PH',
    title: 'Physics: Motion and Energy',
    description: 'Forces, motion, work and energy explained with experiments, graphs and everyday examples.',
  },
  {
    prefix: 'AR',
    title: 'Visual Arts Studio',
    description: 'Drawing, colour and composition; each unit ends with a piece for the class exhibition.',
  },
  {
    prefix: 'EC',
    title: 'Principles of Economics',
    description: 'Supply and demand, markets, money and trade, applied to news stories and local businesses.',
  },
  {
    prefix: 'SP',
    title: 'Spanish for Beginners',
    description:
      'Everyday conversation, core grammar and culture, with short speaking practice in every lesson.',
  },
] as const;

export const SAMPLE_ASSIGNMENTS = [
  {
    title: 'Reading Reflection',
    description:
      "Write a one-page reflection on this week's reading: what surprised you, and one question you still have.",
  },
  {
    title: 'Problem Set',
    description:
      'Work through the problems from this unit. Show your reasoning for each answer, not only the result.',
  },
  {
    title: 'Research Summary',
    description:
      'Find one reliable source on a topic from class and summarise its main argument in 300–400 words.',
  },
  {
    title: 'Lab Report',
    description:
      'Describe your method, record your observations in a table, and explain what your results show.',
  },
  {
    title: 'Unit Review Quiz',
    description: 'Answer the review questions in your own words; these prepare you for the end-of-unit test.',
  },
  {
    title: 'Project Proposal',
    description:
      'Propose a topic for your term project: the question you will explore, your sources and a rough timeline.',
  },
] as const;

/** `count` distinct items in random order. */
export function pickDistinct<T>(items: readonly T[], count: number, random: () => number = Math.random): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count);
}

export const sampleCode = (prefix: string, random: () => number = Math.random) =>
  `${prefix}${100 + Math.floor(random() * 400)}`;

/** How many random codes to try before accepting one the teacher already uses (400 per prefix). */
const CODE_TRIES = 50;

/**
 * `count` sample courses that add to what the teacher has: titles they have not used come first,
 * and a title they already have gets the next free "(Section n)"; codes differ from theirs where
 * one can be found (issue 17: Generate Samples must not repeat a title the teacher already has).
 */
export function freshSampleCourses(
  taken: readonly { title: string; code: string }[],
  count: number,
  random: () => number = Math.random,
): { title: string; description: string; code: string }[] {
  const titles = new Set(taken.map((c) => c.title));
  const codes = new Set(taken.map((c) => c.code.toUpperCase()));
  const unused = SAMPLE_COURSES.filter((s) => !titles.has(s.title));
  const used = SAMPLE_COURSES.filter((s) => titles.has(s.title));
  const picks = [
    ...pickDistinct(unused, Math.min(count, unused.length), random),
    ...pickDistinct(used, Math.max(0, count - unused.length), random),
  ];
  return picks.map((pick) => {
    let title: string = pick.title;
    for (let n = 2; titles.has(title); n++) title = `${pick.title} (Section ${n})`;
    titles.add(title);
    let code = sampleCode(pick.prefix, random);
    for (let i = 0; i < CODE_TRIES && codes.has(code); i++) code = sampleCode(pick.prefix, random);
    codes.add(code);
    return { title, description: pick.description, code };
  });
}
