/**
 * An email's HTML: one simple, inline-styled column that mail clients render alike (no external
 * stylesheet, no scripts, no images), with the language and direction set on the document and on
 * the content (`dir="rtl" lang="he"` for Hebrew: some clients drop the `<html>` element), real
 * headings, and a details table whose labels are row headers, so screen readers read it well.
 *
 * @module
 */
import { renderToString } from "preact-render-to-string";
import type { EmailContent } from "./content.ts";

const FONT = "Arial, Helvetica, sans-serif";
const TEXT = "#1a1a1a";
const MUTED = "#4d4d4d";

/**
 * The HTML document of an email.
 *
 * @example
 * ```ts
 * const html = emailHtml(content, "he", "rtl"); // "<!DOCTYPE html><html lang=\"he\" dir=\"rtl\">…"
 * ```
 */
export function emailHtml(content: EmailContent, lang: string, dir: "ltr" | "rtl"): string {
  return "<!DOCTYPE html>" + renderToString(<Email content={content} lang={lang} dir={dir} />);
}

function Email(props: { content: EmailContent; lang: string; dir: "ltr" | "rtl" }) {
  const { content: c, lang, dir } = props;
  const align = dir === "rtl" ? "right" : "left";
  const cell = `padding:6px 8px;border-bottom:1px solid #dddddd;text-align:${align};vertical-align:top;`;
  return (
    <html lang={lang} dir={dir}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{c.subject}</title>
      </head>
      <body style="margin:0;padding:0;background:#f3f3f3;">
        <div
          lang={lang}
          dir={dir}
          style={`max-width:600px;margin:0 auto;padding:24px;background:#ffffff;font-family:${FONT};font-size:16px;line-height:1.5;color:${TEXT};text-align:${align};`}
        >
          <p style={`margin:0 0 8px;font-size:14px;font-weight:bold;color:${MUTED};`}>{c.brand}</p>
          <h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;">{c.heading}</h1>
          <p style="margin:0 0 12px;">{c.greeting}</p>
          {c.paragraphs.map((p, i) => <p key={i} style="margin:0 0 12px;">{p}</p>)}
          {c.details?.length
            ? (
              <table role="presentation" style="border-collapse:collapse;margin:8px 0 16px;width:100%;">
                {c.details.map(([label, value], i) => (
                  <tr key={i}>
                    <th scope="row" style={`${cell}font-weight:bold;width:40%;`}>{label}</th>
                    <td style={cell}>{value}</td>
                  </tr>
                ))}
              </table>
            )
            : null}
          {c.table
            ? (
              <table style="border-collapse:collapse;margin:8px 0 16px;width:100%;">
                <caption style={`text-align:${align};font-weight:bold;padding:4px 0;`}>
                  {c.table.caption}
                </caption>
                <thead>
                  <tr>{c.table.head.map((h, i) => <th key={i} scope="col" style={cell}>{h}</th>)}</tr>
                </thead>
                <tbody>
                  {c.table.rows.map((row, r) => (
                    <tr key={r}>{row.map((v, i) => <td key={i} style={cell}>{v}</td>)}</tr>
                  ))}
                </tbody>
                {c.table.foot?.length
                  ? (
                    <tfoot>
                      {c.table.foot.map((row, r) => (
                        <tr key={r}>
                          {row.map((v, i) => <td key={i} style={`${cell}font-weight:bold;`}>{v}</td>)}
                        </tr>
                      ))}
                    </tfoot>
                  )
                  : null}
              </table>
            )
            : null}
          {(c.actions ?? []).map((action, i) => (
            <div key={i} style="margin:20px 0;">
              <a
                href={action.url}
                style="display:inline-block;padding:12px 20px;background:#0b4f8a;color:#ffffff;font-weight:bold;text-decoration:none;border-radius:4px;"
              >
                {action.label}
              </a>
              {action.note
                ? <p style={`margin:8px 0 0;font-size:14px;color:${MUTED};`}>{action.note}</p>
                : null}
            </div>
          ))}
          {(c.after ?? []).map((p, i) => <p key={i} style="margin:0 0 12px;">{p}</p>)}
          {c.signoff?.length
            ? (
              <p style="margin:16px 0 0;">
                {c.signoff.map((line, i) => i === 0 ? line : [<br key={i} />, line])}
              </p>
            )
            : null}
          <hr style="border:none;border-top:1px solid #dddddd;margin:24px 0 12px;" />
          <p style={`margin:0;font-size:13px;color:${MUTED};`}>{c.footer}</p>
        </div>
      </body>
    </html>
  );
}
