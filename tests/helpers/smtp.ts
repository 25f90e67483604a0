/**
 * A real SMTP server for tests (`smtp-server`), on a free local port, with AUTH (user `museum`,
 * password `mail-secret`), that parses what it accepts with `mailparser`. It can refuse messages
 * (`refuse(451)`: temporary, `refuse(550)`: permanent) and go away and come back on the same port
 * (`stop()`, `listen()`), as a mail server under maintenance does.
 *
 * @module
 */
// @ts-types="@types/smtp-server"
import { SMTPServer } from "smtp-server";
// @ts-types="@types/mailparser"
import { type ParsedMail, simpleParser } from "mailparser";

/** The test server. */
export interface TestSmtp {
  /** `smtp://museum:mail-secret@127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Every message accepted so far, parsed, in arrival order. */
  received: ParsedMail[];
  /** How many DATA commands were refused. */
  refused: number;
  /** From now on, answers DATA with this code (4xx or 5xx), or accepts again with null. */
  refuse(code: number | null): void;
  /** Resolves once `count` messages have arrived (rejects after `timeoutMs`, {@link MAIL_WAIT_MS} by default). */
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  /** Stops listening (and drops open connections): the server is gone. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  listen(): Promise<void>;
}

/**
 * How long a test waits for a mail by default: a deadline, not a delay (the wait ends as soon as
 * the mail comes). Generous because the first receipt's PDF waits for the receipt worker's first
 * start (pdf-lib and the font loaded: 0.7 s idle, 5.5 s under two busy loops, more while CI runs
 * two test files on two cores), and a 5 or 20 s wait failed there.
 */
export const MAIL_WAIT_MS = 60_000;

export const SMTP_USER = "museum";
export const SMTP_PASSWORD = "mail-secret";

/** Starts a test SMTP server; `stop()` it when done. */
export async function startSmtp(): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  let refuseCode: number | null = null;
  let server: SMTPServer | null = null;
  const state = { refused: 0 };
  const make = () =>
    new SMTPServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      // "Gone" means gone: open (pooled) connections are cut at once, not after 30 s.
      closeTimeout: 100,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) {
          return callback(null, { user: 1 });
        }
        callback(new Error("Invalid username or password"));
      },
      onData(stream, _session, callback) {
        const chunks: Uint8Array[] = [];
        stream.on("data", (chunk: Uint8Array) => chunks.push(chunk));
        stream.on("end", async () => {
          if (refuseCode !== null) {
            state.refused++;
            const error = new Error(refuseCode >= 500 ? "Mailbox unavailable" : "Try again later") as
              & Error
              & {
                responseCode: number;
              };
            error.responseCode = refuseCode;
            return callback(error);
          }
          const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
          let offset = 0;
          for (const c of chunks) bytes.set(c, (offset += c.length) - c.length);
          received.push(await simpleParser(new TextDecoder().decode(bytes)));
          callback();
        });
      },
    });
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = make();
      server.on("error", () => {});
      const s = server as unknown as { server: { once(e: string, f: (e: Error) => void): void } };
      s.server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        port = (server as unknown as { server: { address(): { port: number } } }).server.address().port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      const closing = server;
      server = null;
      closing.close(() => resolve());
    });
  await listen();
  return {
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    port,
    received,
    get refused() {
      return state.refused;
    },
    refuse(code) {
      refuseCode = code;
    },
    async waitFor(count, timeoutMs = MAIL_WAIT_MS) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`only ${received.length} of ${count} messages arrived`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    stop,
    listen,
  };
}

/** The mails `smtp` accepted so far for `email` (in any of their To addresses). */
export function mailsTo(smtp: TestSmtp, email: string): ParsedMail[] {
  return smtp.received.filter((m) => m.to && [m.to].flat().some((a) => a.text.includes(email)));
}

/**
 * Waits until `count` mails reached `email` (at most `timeoutMs`, {@link MAIL_WAIT_MS} by default), then half a second more to see
 * that no more come, and answers them: exactly `count`, or the call fails.
 *
 * @example
 * ```ts
 * const [receipt] = await waitForMailsTo(smtp, "dana@example.org", 1);
 * ```
 */
export async function waitForMailsTo(
  smtp: TestSmtp,
  email: string,
  count: number,
  timeoutMs = MAIL_WAIT_MS,
): Promise<ParsedMail[]> {
  const until = Date.now() + timeoutMs;
  while (mailsTo(smtp, email).length < count) {
    if (Date.now() > until) {
      throw new Error(`${count} mails to ${email} did not arrive (${mailsTo(smtp, email).length})`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 500));
  const mails = mailsTo(smtp, email);
  if (mails.length !== count) throw new Error(`exactly ${count} mails to ${email}: ${mails.length} came`);
  return mails;
}
