/**
 * The museum editor's form: prices typed in major units sent as exact minor units (or as what the
 * server refuses), the settings round-tripped through the form unchanged, and the API's field
 * errors placed beside their inputs in the page's words.
 */
import assert from "node:assert/strict";
import { defaultMuseumSettings } from "@/lib/museum/defaults.ts";
import { translator } from "@/islands/shared/texts.ts";
import { changeOf, formOf, majorText, minorOf, newLevel } from "./museum_form.ts";
import { fieldErrors, imageFault } from "./museum_faults.ts";

Deno.test("minorOf: exact minor units for up to two decimals; anything else the server refuses", () => {
  assert.equal(minorOf("120"), 12_000);
  assert.equal(minorOf(" 32.5 "), 3_250);
  assert.equal(minorOf("32,50"), 3_250);
  assert.equal(minorOf("0.29"), 29); // not 28.999… as 0.29 * 100 is
  assert.ok(!Number.isInteger(minorOf("1.555")));
  for (const bad of ["", "abc", "-5", "1e3", "1.2.3"]) assert.ok(Number.isNaN(minorOf(bad)), bad);
  assert.equal(majorText(3_250), "32.50");
  assert.equal(majorText(12_000), "120");
});

Deno.test("changeOf(formOf(settings)): the settings as they were; a new level has no id", () => {
  const settings = defaultMuseumSettings();
  const form = formOf(settings);
  const change = changeOf(form);
  assert.deepEqual(change.levels, settings.levels.map(({ ...level }) => level));
  assert.deepEqual(change.identity, settings.identity);
  // The receipts' donation share is kept by a save (a level at 60% stays at 60%).
  settings.levels[2].donationShare = 60;
  assert.equal(changeOf(formOf(settings)).levels[2].donationShare, 60);
  form.levels.push(newLevel());
  const added = changeOf(form).levels[4];
  assert.equal("id" in added, false);
  assert.ok(Number.isNaN(added.price.nis), "an empty price is sent as null (JSON), refused by the server");
  assert.equal(JSON.parse(JSON.stringify(added)).price.nis, null);
});

Deno.test("fieldErrors: each API path beside its input, translated by the field's kind", () => {
  const t = translator({
    "museumEditor.errors.price": "price {{min}}–{{max}}",
    "museumEditor.errors.name": "name ≤ {{max}}",
    "museumEditor.errors.levelGone": "gone",
    "museumEditor.errors.levels": "levels",
    "museumEditor.errors.benefits": "benefits",
  });
  const errors = fieldErrors(
    [
      { path: "levels.1.price.nis", message: "the price must be from 100 to 10000000 (minor units)" },
      { path: "identity.name.he", message: "required" },
      { path: "levels.3.id", message: "there is no level 7" },
      { path: "levels.0.benefits.ru.2", message: "too long" },
      { path: "levels", message: "too many" },
      { path: "levels.1.price.nis", message: "second error for the same field" },
    ],
    t,
    { minAmount: 1, maxAmount: 100_000 },
  );
  assert.deepEqual(errors, {
    "level-1-price-nis": "price 1–100000",
    "museum-name-he": "name ≤ 80",
    "level-3": "gone",
    "level-0-benefits-ru": "benefits",
    levels: "levels",
  });
});

Deno.test("imageFault: each reason the server gives for a file, in the page's words", () => {
  const t = translator({ "museumEditor.imageErrors.tooLarge": "larger than {{kb}} KB" });
  const cases: [number, string, string][] = [
    [413, "The request body is larger than 221184 bytes", "tooLarge"],
    [413, "the file is larger than 200 KB", "tooLarge"],
    [400, "the SVG contains a script, which is not allowed", "script"],
    [400, "the SVG declares a DOCTYPE or entities, which are not allowed", "entities"],
    [400, "the file is not a well-formed SVG document", "svgInvalid"],
    [400, "the image must be at most 4000 × 4000 pixels", "pixels"],
    [400, "the file is not a PNG image, whatever its name says", "notImage"],
    [400, "the file must be an SVG or a PNG", "type"],
    [400, "something new", "other"],
  ];
  for (const [status, message, key] of cases) {
    assert.equal(imageFault(status, message, t), t(`museumEditor.imageErrors.${key}`, { kb: 200 }), message);
  }
  assert.equal(imageFault(413, undefined, t), "larger than 200 KB");
});

Deno.test("the hero's texts round-trip through the form, and their errors sit beside their inputs", () => {
  const t = translator({ "museumHero.errors.title": "a title of at most {{max}}" });
  const settings = defaultMuseumSettings();
  const form = formOf(settings);
  assert.equal(form.hero.title.en, "Be part of the museum's next chapter");
  assert.deepEqual(
    changeOf(form).hero,
    settings.hero && {
      title: settings.hero.title,
      text: settings.hero.text,
      imageAlt: settings.hero.imageAlt,
    },
  );
  const errors = fieldErrors([{ path: "hero.title.he", message: "…" }], t, { minAmount: 1, maxAmount: 100 });
  assert.deepEqual(errors, { "hero-title-he": "a title of at most 120" });
});
