import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The link the mail carries; logged instead of mailed when no SMTP server is configured. */
  link: string;
}

export interface Mailer {
  /** True when mail really goes out (so email verification can be required). */
  readonly delivers: boolean;
  send(mail: Mail): Promise<void>;
}

/** Mail through SMTP when `smtpUrl` is set; otherwise the link is written to the log (embedded default). */
export function createMailer(opts: { smtpUrl?: string; from: string; log: Logger }): Mailer {
  if (!opts.smtpUrl) {
    return {
      delivers: false,
      async send(mail) {
        opts.log.warn(
          { to: mail.to, subject: mail.subject, link: mail.link },
          'no SMTP_URL: mail not sent, link logged',
        );
      },
    };
  }
  const url = new URL(opts.smtpUrl);
  const secure = url.protocol === 'smtps:';
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    delivers: true,
    async send(mail) {
      await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text });
      opts.log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
    },
  };
}
