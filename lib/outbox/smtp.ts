/**
 * The outbox's transport: SMTP through nodemailer, from `SMTP_URL` and `MAIL_FROM`
 * (`lib/outbox/config.ts`). A small interface ({@link MailTransport}) so the sender
 * (`outbox_sender.ts`) does not know nodemailer, and its tests can count what it hands over.
 *
 * Timeouts are far below nodemailer's defaults (two minutes to connect, ten of socket silence): a
 * send must end well within the sender's claim on the message (its lease), or another instance
 * could claim and send it again while this one still waits.
 *
 * @module
 */
import { Buffer } from "node:buffer";
// @ts-types="@types/nodemailer"
import nodemailer from "nodemailer";
import type { RenderedMessage } from "@/lib/storage/message_types.ts";

/** A rendered message with the headers the outbox gives it. */
export interface OutgoingMail extends RenderedMessage {
  /** `<…@…>`, derived from the outbox key: the same on every retry, so receivers can drop repeats. */
  messageId: string;
}

/** Sends one message; rejects when the server did not accept it (nothing is known to be sent). */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  /** Closes pooled connections. */
  close(): void;
}

/** How long to wait for the server: to connect, for its greeting, and for any answer. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * The SMTP transport of `smtpUrl` (user and password in the URL), sending as `from`. Pooled: up to
 * `maxConnections` connections stay open between messages, so a burst of receipts does not pay a
 * handshake each.
 *
 * @example
 * ```ts
 * const transport = smtpTransport("smtps://user:pass@smtp.museum.org:465", "donations@museum.org");
 * ```
 */
export function smtpTransport(smtpUrl: string, from: string, maxConnections = 3): MailTransport {
  const transporter = nodemailer.createTransport(
    {
      url: smtpUrl,
      pool: true,
      maxConnections,
      ...SMTP_TIMEOUTS,
    } as Parameters<typeof nodemailer.createTransport>[0],
  );
  return {
    async send(mail) {
      await transporter.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        headers: { "Content-Language": mail.language },
        attachments: mail.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.content),
        })),
      });
    },
    close: () => transporter.close(),
  };
}
