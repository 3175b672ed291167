import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string;
  subject: string;
  text: string;
  /** Its Message-ID header, as sent. */
  messageId: string | undefined;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives, for tests to read. */
export class MailCatcher {
  readonly mails: CaughtMail[] = [];
  private server: SMTPServer | undefined;
  private waiters: Array<() => void> = [];
  port = 0;

  /** `onMail` sees each mail as it arrives (the end-to-end suite writes them where its workers can read them). */
  constructor(private readonly options: { onMail?: (mail: CaughtMail) => void } = {}) {}

  async start(port = 0): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            const mail = {
              to: session.envelope.rcptTo.map((r) => r.address).join(','),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              messageId: parsed.messageId,
            };
            this.mails.push(mail);
            this.options.onMail?.(mail);
            this.waiters.splice(0).forEach((wake) => wake());
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The newest mail to `to`, waiting for it to arrive. */
  async latestTo(to: string, timeoutMs = 5000): Promise<CaughtMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mails.filter((m) => m.to.toLowerCase() === to.toLowerCase()).at(-1);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  /** The `n`-th mail (counting from 1) to `to`, waiting for it: for mails sent after the answer. */
  async nthTo(to: string, n: number, timeoutMs = 5000): Promise<CaughtMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mails.filter((m) => m.to.toLowerCase() === to.toLowerCase())[n - 1];
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail #${n} to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  countTo(to: string): number {
    return this.mails.filter((m) => m.to.toLowerCase() === to.toLowerCase()).length;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The verification link in a mail. */
export function linkIn(mail: CaughtMail): string {
  const match = /https?:\/\/\S+\/api\/auth\/verify\?token=[\w-]+/.exec(mail.text);
  if (!match) throw new Error(`no verification link in: ${mail.text}`);
  return match[0];
}

/** The password-reset link in a mail. */
export function resetLinkIn(mail: CaughtMail): string {
  const match = /https?:\/\/\S+\?token=[\w-]+/.exec(mail.text);
  if (!match || match[0].includes('/api/auth/verify')) throw new Error(`no reset link in: ${mail.text}`);
  return match[0];
}

/** The token of a co-teacher invitation link (`/teacher-invites/<token>`) in a mail. */
export function teacherInviteTokenIn(mail: CaughtMail): string {
  const match = /https?:\/\/\S+\/teacher-invites\/([\w-]+)/.exec(mail.text);
  if (!match) throw new Error(`no invitation link in: ${mail.text}`);
  return match[1]!;
}
