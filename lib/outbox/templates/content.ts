/**
 * One email's words as structure, not markup: a heading, paragraphs, a list of details, an
 * optional table, a button-link and a footer. Each message kind builds one of these; the same
 * content is then written as HTML (`layout.tsx`) and as plain text (here), so the two can never
 * say different things.
 *
 * @module
 */

/** A link shown as a button in HTML and as `label: url` in text. */
export interface EmailAction {
  label: string;
  url: string;
  /** A line under the button (e.g. how long a link works). */
  note?: string;
}

/** A table of rows (the yearly statement's gifts). */
export interface EmailTable {
  caption: string;
  head: string[];
  rows: string[][];
  /** Rows under the body, e.g. totals. */
  foot?: string[][];
}

/** What an email says. Every string comes from `locales/` or from the data it reports. */
export interface EmailContent {
  subject: string;
  /** The museum's name, shown above the heading. */
  brand: string;
  heading: string;
  greeting: string;
  paragraphs: string[];
  /** Label → value pairs (amount, date, card…). */
  details?: [string, string][];
  table?: EmailTable;
  actions?: EmailAction[];
  /** Paragraphs after the actions. */
  after?: string[];
  signoff?: string[];
  footer: string;
}

/**
 * The plain-text version of an email.
 *
 * @example
 * ```ts
 * emailText({ subject: "Hi", brand: "Museum", heading: "Thanks", greeting: "Dear Dana,", paragraphs: ["…"], footer: "…" });
 * ```
 */
export function emailText(content: EmailContent): string {
  const blocks: string[] = [content.heading, content.greeting, ...content.paragraphs];
  if (content.details?.length) {
    blocks.push(content.details.map(([label, value]) => `${label}: ${value}`).join("\n"));
  }
  if (content.table) {
    const { caption, head, rows, foot = [] } = content.table;
    const line = (cells: string[]) => cells.join(" | ");
    blocks.push([caption, line(head), ...rows.map(line), ...foot.map(line)].join("\n"));
  }
  for (const action of content.actions ?? []) {
    blocks.push([`${action.label}:`, action.url, ...(action.note ? [action.note] : [])].join("\n"));
  }
  blocks.push(...(content.after ?? []));
  if (content.signoff?.length) blocks.push(content.signoff.join("\n"));
  blocks.push(`-- \n${content.footer}`);
  return blocks.join("\n\n") + "\n";
}
