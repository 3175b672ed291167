import { expect, test, type Page } from '@playwright/test';
import {
  navTo,
  PASSWORD,
  screenshots,
  signUpAndSignIn,
  uniqueEmail,
  verificationLinkFor,
} from './support.js';

const localDateTime = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

const rosterRow = (teacher: Page, name: string) =>
  teacher.getByRole('region', { name: 'Roster' }).getByRole('listitem', { name });

test('classes: present the code, join by code and by link, a live roster, members-only work, removal', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const contexts = await Promise.all([1, 2, 3, 4].map(() => browser.newContext()));
  const [teacher, ada, bea, cal] = await Promise.all(contexts.map((c) => c.newPage()));

  // The teacher, student A and the outsider sign up side by side (student B does it on screen).
  await Promise.all([
    signUpAndSignIn(teacher!, { fullName: 'Tess Teacher', role: 'Teacher', email: uniqueEmail('tess') }),
    signUpAndSignIn(ada!, { fullName: 'Ada Student', role: 'Student', email: uniqueEmail('ada') }),
    signUpAndSignIn(cal!, { fullName: 'Cal Outsider', role: 'Student', email: uniqueEmail('cal') }),
  ]);

  // The teacher makes a class and presents its code.
  await teacher!.goto('/courses');
  await teacher!.getByRole('button', { name: 'Create Course' }).first().click();
  const create = teacher!.getByRole('dialog', { name: 'Create Course' });
  await create.getByLabel('Course Title').fill('Ocean Science');
  await create.getByLabel('Course Code').fill('OC101');
  await create.getByLabel('Description').fill('Tides, currents and the creatures in them.');
  await create.getByRole('button', { name: 'Create Course' }).click();
  await expect(teacher!.getByText('Course created successfully!')).toBeVisible();
  await teacher!.getByRole('link', { name: 'View Course' }).first().click();
  await expect(teacher!.getByRole('heading', { level: 1, name: 'Ocean Science' })).toBeVisible();
  await expect(teacher!.getByRole('region', { name: 'Roster' })).toContainText('No students yet');
  await screenshots(teacher!, 'classes-code-panel');

  await teacher!.getByRole('button', { name: 'Present' }).click();
  const present = teacher!.getByRole('dialog', { name: 'Ocean Science' });
  const code = (await present.getByTestId('present-code').textContent())!;
  expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  await expect(present.getByTestId('present-link')).toHaveText(new RegExp(`^https?://.+/join/${code}$`));
  await expect(present.locator('.present__qr svg')).toBeVisible();
  await screenshots(teacher!, 'classes-present');
  await teacher!.keyboard.press('Escape');
  await expect(present).toBeHidden();

  // Student A has no classes yet, and joins by typing the code (lower case, no dash).
  await navTo(ada!, 'Courses');
  await expect(ada!.getByRole('heading', { name: 'No courses available' })).toBeVisible();
  await ada!.getByRole('button', { name: 'Join a class' }).first().click();
  const join = ada!.getByRole('dialog', { name: 'Join a class' });
  await join.getByLabel('Class code').fill('ZZZZ-ZZZZ');
  await join.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(join.getByRole('alert')).toContainText('No course has that code');
  await join.getByLabel('Class code').fill(code.replace('-', '').toLowerCase());
  await screenshots(ada!, 'classes-join-dialog');
  await join.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(ada!.getByRole('heading', { level: 1, name: 'Ocean Science' })).toBeVisible();
  await expect(rosterRow(teacher!, 'Ada Student')).toContainText('Active');

  // Student B opens the link signed out, signs up, verifies, signs in and lands on the preview.
  const beaEmail = uniqueEmail('bea');
  await bea!.goto(`/join/${code}`);
  await expect(bea!).toHaveURL(/\/login\?next=%2Fjoin%2F/);
  await bea!.getByRole('link', { name: 'Create an account' }).click();
  await bea!.getByLabel('Full name').fill('Bea Student');
  await bea!.getByLabel('Email').fill(beaEmail);
  await bea!.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await bea!.getByRole('button', { name: 'Create Account' }).click();
  await expect(bea!.getByRole('heading', { name: 'Verification Email Sent!' })).toBeVisible();
  await bea!.goto(await verificationLinkFor(beaEmail));
  await expect(bea!).toHaveURL(/\/login\?.*verified=1/);
  await bea!.getByLabel('Email').fill(beaEmail);
  await bea!.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await bea!.getByRole('button', { name: 'Sign In' }).click();
  await expect(bea!).toHaveURL(new RegExp(`/join/${code}$`));
  await expect(bea!.getByRole('heading', { level: 1, name: 'Ocean Science' })).toBeVisible();
  await expect(bea!.getByText('Tess Teacher')).toBeVisible();
  await expect(bea!.getByText('1 student', { exact: true })).toBeVisible();
  await expect(bea!.getByText(/You.ll join as/)).toContainText(`Bea Student (${beaEmail})`);
  await screenshots(bea!, 'classes-join-preview');
  await bea!.getByRole('button', { name: 'Join Ocean Science' }).click();
  await expect(bea!).toHaveURL(/\/courses\/[0-9a-f-]{36}$/);

  // The teacher's roster shows both, live.
  await expect(rosterRow(teacher!, 'Bea Student')).toContainText('Active');
  await expect(teacher!.getByRole('region', { name: 'Roster' }).getByRole('listitem')).toHaveCount(2);
  await screenshots(teacher!, 'classes-roster');

  // An assignment reaches the members only: a student who never joined sees none.
  await navTo(ada!, 'Assignments');
  await navTo(cal!, 'Assignments');
  await navTo(teacher!, 'Assignments');
  await teacher!.getByRole('button', { name: 'Create Assignment' }).click();
  const assignment = teacher!.getByRole('dialog', { name: 'Create Assignment' });
  await assignment.getByLabel('Title').fill('Map the tides');
  await assignment.getByLabel('Course').selectOption({ label: 'Ocean Science (OC101)' });
  await assignment.getByLabel('Due Date').fill(localDateTime(3));
  await assignment.getByRole('button', { name: 'Create Assignment' }).click();
  await expect(teacher!.getByText('Assignment created!')).toBeVisible();
  await expect(ada!.getByRole('list', { name: 'Assignments' })).toContainText('Map the tides');
  await cal!.reload();
  await expect(cal!.getByRole('heading', { level: 1, name: 'Assignments' })).toBeVisible();
  await expect(cal!.getByText('Map the tides')).toHaveCount(0);
  await navTo(cal!, 'Courses');
  await expect(cal!.getByRole('heading', { name: 'No courses available' })).toBeVisible();

  // Removing Ada takes the course and its work off her screen, live.
  await navTo(ada!, 'Courses');
  await expect(ada!.getByRole('list', { name: 'Courses' })).toContainText('Ocean Science');
  await navTo(teacher!, 'Courses');
  await teacher!.getByRole('link', { name: 'View Course' }).first().click();
  await teacher!.getByRole('button', { name: 'Remove Ada Student' }).click();
  await teacher!
    .getByRole('alertdialog', { name: 'Remove Ada Student from this class?' })
    .getByRole('button', { name: 'Remove student' })
    .click();
  await expect(rosterRow(teacher!, 'Ada Student')).toContainText('Removed');
  await expect(ada!.getByText('You were removed from Ocean Science')).toBeVisible();
  await expect(ada!.getByRole('heading', { name: 'No courses available' })).toBeVisible();
  await navTo(ada!, 'Assignments');
  await expect(ada!.getByText('Map the tides')).toHaveCount(0);

  await Promise.all(contexts.map((c) => c.close()));
});
