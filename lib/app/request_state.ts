/**
 * The state of one request ({@link AppState}), made by the pipeline for every request. What only
 * some requests need is worked out when first read: the detected language (a page under `/{lang}/`
 * takes its path's, set by `routes/[lang]/_middleware.ts`, and never detects one), its direction and
 * translations, and the logger carrying the request id.
 *
 * @module
 */
import type { TFunction } from "i18next";
import type { ApiDocs } from "./api_docs.ts";
import { FLAG_NAMES, type Flags } from "@/lib/settings/flags.ts";
import type { MuseumSettings } from "@/lib/shared/museum.ts";
import { translator } from "@/lib/core/i18n.ts";
import type { Logger } from "@/lib/core/log.ts";
import { dirOf, type Lang } from "@/lib/shared/languages.ts";
import type { AppState, Services } from "./state.ts";

/** The flags of a request until a page reads them: all off. */
const NO_FLAGS: Flags = Object.freeze(Object.fromEntries(FLAG_NAMES.map((f) => [f, false]))) as Flags;

/**
 * A request's state.
 *
 * @example
 * ```ts
 * const state = new RequestState(services, apiDocs, requestId, nonce, () => detectLanguage(c));
 * state.lang; // detected now, once
 * ```
 */
export class RequestState implements AppState {
  flags: Flags = NO_FLAGS;
  museum?: MuseumSettings;
  contentLanguage?: Lang;
  #lang: Lang | undefined;
  #dir: "ltr" | "rtl" | undefined;
  #t: TFunction | undefined;
  #log: Logger | undefined;

  constructor(
    readonly services: Services,
    readonly apiDocs: ApiDocs,
    readonly requestId: string,
    readonly nonce: string,
    readonly detectLanguage: () => Lang,
  ) {}

  get lang(): Lang {
    return this.#lang ??= this.detectLanguage();
  }
  set lang(lang: Lang) {
    this.#lang = lang;
  }
  get dir(): "ltr" | "rtl" {
    return this.#dir ??= dirOf(this.lang);
  }
  set dir(dir: "ltr" | "rtl") {
    this.#dir = dir;
  }
  get t(): TFunction {
    return this.#t ??= translator(this.lang);
  }
  set t(t: TFunction) {
    this.#t = t;
  }
  get log(): Logger {
    return this.#log ??= this.services.log.with({ requestId: this.requestId });
  }
}
