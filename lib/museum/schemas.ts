/**
 * The museum settings' API schemas (`GET` and `PUT /api/settings/museum`): the settings as answered,
 * and an owner's change. Amounts are integers in minor units (agorot, cents). The rules across
 * fields (known level ids, a benefits' value within the price, the payment ceiling) are checked by
 * `change.ts`, with the same `{ path, message }` errors.
 *
 * @module
 */
import { z } from "zod";
import { text } from "@/lib/core/schema_fields.ts";
import { HEX_COLOUR } from "@/lib/shared/colours.ts";
import { LANGUAGES } from "@/lib/shared/languages.ts";
import { TEXT_LIMITS } from "@/lib/shared/museum.ts";

export { TEXT_LIMITS };

/** A value in every language: all five keys, nothing else. */
const perLanguage = <T extends z.ZodType>(value: (lang: string) => T) =>
  z.strictObject(
    Object.fromEntries(LANGUAGES.map((lang) => [lang, value(lang)])) as Record<
      typeof LANGUAGES[number],
      T
    >,
    { error: `every language (${LANGUAGES.join(", ")}) must be given, and nothing else` },
  );

const minor = (label: string) =>
  z.number({ error: `${label} must be a number` }).int(`${label} must be whole agorot or cents (minor units)`)
    .min(0, `${label} must not be negative`);

const amounts = (label: string) =>
  z.strictObject({ nis: minor(`${label} in shekels`), dollars: minor(`${label} in dollars`) });

const colour = (label: string) =>
  z.string({ error: `${label} must be a string` }).trim().toLowerCase().regex(
    HEX_COLOUR,
    `${label} must be # and six hex digits (#1f3a5f)`,
  );

/** The brand colours; each checked for contrast with what it is drawn with by `change.ts`. */
const ColoursSchema = z.strictObject({
  brand: colour("the brand colour").describe(
    "Headings, links, the header; white text on it, and text on the page",
  ),
  accent: colour("the accent colour").describe("The donate button (white text on it) and focus rings"),
});

/** A level as an owner sends it: `id` of a level that exists, or none for a new one. */
export const LevelChangeSchema = z.strictObject({
  id: z.number().int().min(1).max(999).nullable().optional().describe(
    "The id of the level this was (kept by it for good); absent or null for a new level",
  ),
  name: perLanguage((lang) => text(`name (${lang})`, TEXT_LIMITS.levelName)),
  benefits: perLanguage((lang) =>
    z.array(z.string({ error: `a benefit (${lang}) must be text` }).max(TEXT_LIMITS.benefit), {
      error: `benefits (${lang}) must be a list of lines`,
    }).max(TEXT_LIMITS.benefits, `at most ${TEXT_LIMITS.benefits} benefits (${lang})`)
  ).describe("One line each; blank lines are dropped"),
  price: amounts("the price").describe("Minor units; a monthly gift at the level pays this each month"),
  termMonths: z.number({ error: "termMonths must be a number" }).int().min(1, "termMonths must be 1 to 120")
    .max(120, "termMonths must be 1 to 120").default(12),
  cardholders: z.number({ error: "cardholders must be a number" }).int().min(1, "cardholders must be 1 to 20")
    .max(20, "cardholders must be 1 to 20").default(1),
  guests: z.number({ error: "guests must be a number" }).int().min(0, "guests must be 0 to 20")
    .max(20, "guests must be 0 to 20").default(0).describe(
      "How many guests a member at the level may bring on a visit (the front desk shows it); 0 by default",
    ),
  benefitsValue: amounts("the benefits' value").describe(
    "Minor units: the fair market value of the benefits, which US receipts state as goods or services",
  ),
  monthly: z.boolean({ error: "monthly must be true or false" }).describe("Offered as a monthly gift too"),
  donationShare: z.number({ error: "donationShare must be a number" }).int(
    "donationShare must be a whole percent",
  )
    .min(0, "donationShare must be 0 to 100").max(100, "donationShare must be 0 to 100").default(100)
    .describe(
      "Percent of a payment at the level that Israeli (Section 46) receipts state as a donation; 100 by default",
    ),
});

/** `PUT /api/settings/museum`: the whole settings, over the version they were read at. */
export const MuseumSettingsChangeSchema = z.strictObject({
  version: z.number({ error: "version must be a number" }).int().min(0).describe(
    "The version the change was made from (GET's); 0 for a fresh install's defaults",
  ),
  identity: z.strictObject({
    name: perLanguage((lang) => text(`the museum's name (${lang})`, TEXT_LIMITS.museumName)),
    colours: ColoursSchema.optional().describe(
      "Absent: kept as they are. Each needs a contrast of at least 4.5:1 with every colour it is drawn with",
    ),
  }),
  levels: z.array(LevelChangeSchema).max(TEXT_LIMITS.levels, `at most ${TEXT_LIMITS.levels} levels`).describe(
    "In the order the donation page shows them",
  ),
}).meta({ id: "MuseumSettingsChange" });

/** An owner's change as checked by {@link MuseumSettingsChangeSchema}. */
export type MuseumSettingsChange = z.infer<typeof MuseumSettingsChangeSchema>;

const level = LevelChangeSchema.extend({ id: z.number().int() });

/** The settings as `GET /api/settings/museum` answers them. */
export const MuseumSettingsSchema = z.object({
  version: z.number().int().describe("Bumped by every save; 0: the defaults, never saved"),
  identity: z.object({ name: z.record(z.string(), z.string()), colours: ColoursSchema }),
  levels: z.array(level.extend({ name: z.record(z.string(), z.string()) })),
  lastLevelId: z.number().int().describe(
    "The highest level id ever given; a removed level's is never reused",
  ),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable().describe("The email of the owner who saved last"),
}).meta({ id: "MuseumSettings" });
