/**
 * The museum settings' API operations as the OpenAPI document describes them: one export per route,
 * which the route re-exports as its `docs` (`lib/app/openapi.ts` builds the document from them).
 *
 * @module
 */
import { MuseumSettingsChangeSchema, MuseumSettingsSchema } from "./schemas.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

/** `GET /api/settings/museum`, `PUT /api/settings/museum`. */
export const museumSettingsDocs: RouteDocs = {
  GET: {
    summary: "The museum's settings: its name and membership levels",
    description: "Its name in each language and its membership levels (name and benefits per language, " +
      "prices in minor units, term, cardholders, the benefits' value for US receipts, whether offered " +
      "monthly), with the version a change must be made from. A fresh install answers the defaults " +
      "(version 0): the spec's prices, named and described in every language.",
    tags: ["settings"],
    auth: "bearer",
    responses: {
      200: { description: "The settings", schema: MuseumSettingsSchema },
      403: { description: "The caller is not an owner" },
    },
  },
  PUT: {
    summary: "Change the museum's settings",
    description: "Replaces the name and the levels, over the version they were read at, audited " +
      "(`museum-settings-changed`: the version and the fields changed) in the same write. A level keeps " +
      "its id; a new one (no id) gets the next, and a removed level's id is never given again. Prices " +
      "are from 100 minor units to the payment ceiling (`MAX_AMOUNT`), a benefits' value at most the " +
      "price. The donation page shows the change within about a second, payments at once. The same " +
      "settings again change nothing.",
    tags: ["settings"],
    auth: "bearer",
    body: MuseumSettingsChangeSchema,
    responses: {
      200: { description: "The settings now stored", schema: MuseumSettingsSchema },
      400: { description: "A field breaks a rule; `errors` lists each (`levels.1.price.nis`, …)" },
      403: { description: "The caller is not an owner" },
      409: { description: "Someone saved the settings since this version: reload and change them again" },
    },
  },
};

/** `PUT` and `DELETE /api/settings/museum/{logo|hero-image}`. */
export const museumImageDocs: RouteDocs = {
  PUT: {
    summary: "Upload the museum's logo or the hero's image",
    description: "A `multipart/form-data` body (a plain HTML form can send it) of `version` (the settings' " +
      "version it is made from) and `file`: the logo an SVG or a PNG, the hero's image a PNG, JPEG or " +
      "WebP, at most 200 KB and 4000 × 4000 pixels. An SVG with a script or a DOCTYPE is refused; its " +
      "event handlers, external references and foreign objects are removed before it is stored. Audited as " +
      "`museum-settings-changed` (`identity.logo`, `hero.image`); the image is served from " +
      "`/museum-images/{hash}.{ext}`.",
    tags: ["settings"],
    auth: "bearer",
    responses: {
      200: { description: "The settings now stored", schema: MuseumSettingsSchema },
      400: { description: "The file is not one the site takes; `errors[0]` (path `file`) says why" },
      403: { description: "The caller is not an owner" },
      409: { description: "Someone saved the settings since this version" },
      413: { description: "The file is larger than 200 KB" },
      415: { description: "The body is not multipart/form-data" },
    },
  },
  DELETE: {
    summary: "Remove the museum's logo or the hero's image",
    description: "`?version=` the settings' version it is made from; the page shows the site's own mark " +
      "(or no hero image) again. Audited as `museum-settings-changed`.",
    tags: ["settings"],
    auth: "bearer",
    responses: {
      200: { description: "The settings now stored", schema: MuseumSettingsSchema },
      403: { description: "The caller is not an owner" },
      409: { description: "Someone saved the settings since this version" },
    },
  },
};
