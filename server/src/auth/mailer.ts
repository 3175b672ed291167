import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * A Message-ID of our own (`<…@host>`), the same each time this one message is sent again: mail
   * servers and clients recognise a repeat of it (otherwise the transport makes up a new one).
   */
  messageId?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * Sends over SMTP when SMTP_URL is set; otherwise writes the mail, links included, to the log,
 * so a fresh install can still verify accounts without a mail server.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (!options.smtpUrl) {
    return {
      async send(mail) {
        // A warning: the mail was not sent, and at LOG_LEVEL=warn the link must still be visible.
        options.log.warn(
          { mail: { to: mail.to, subject: mail.subject } },
          `E-mail (not sent: SMTP_URL is not set)\n${mail.text}`,
        );
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl, {
    from: options.from,
  });
  return {
    async send(mail) {
      await transport.sendMail({ from: options.from, ...mail });
    },
    close() {
      transport.close();
    },
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A plain, friendly mail with one button; the text part carries the same link. */
export function composeMail(
  to: string,
  subject: string,
  paragraphs: string[],
  action?: { label: string; url: string },
): Mail {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), '— Classwave'].join(
    '\n\n',
  );
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;line-height:1.5">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${
  action
    ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#4f46e5;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="font-size:13px;color:#6b7280">Or open this link: ${escapeHtml(action.url)}</p>`
    : ''
}
<p style="color:#6b7280">— Classwave</p></body></html>`;
  return { to, subject, text, html };
}
