/**
 * The desk's service worker (issue 28, item 2, offline): served at `/desk-sw.js` and registered
 * only by the desk page, with the scope of that page alone (`/{lang}/desk`), so it never sees
 * another page of the product. It keeps the desk working when the network drops:
 *
 * - the page: network first (the staff's fresh page, kept as the fallback), its kept copy offline;
 * - hashed files under `/_app/` (the desk's scripts, their lazy chunks, the stylesheet): from the
 *   cache, fetched and kept on a miss (their names change when their bytes do);
 * - the card key (`/.well-known/member-card-key.json`) and the museum's colours (`/museum.css`):
 *   network first, the kept copy offline. What it answers from the cache carries `x-desk-offline`,
 *   so the page can tell a sync from a kept copy.
 *
 * Its caches are named `desk:{scope path}:{build}`: a new build installs a new cache and, once
 * active, deletes the older ones of its scope (each language's desk has its own). The worker's
 * code is {@link deskWorker}, sent as its source text with the build's version and the files to
 * keep in front of it.
 *
 * @module
 */
import type { BuildManifest } from "@/lib/framework/build.ts";
import { ASSET_PREFIX } from "@/lib/framework/assets.ts";

/** Where the worker is served; the page registers it there. */
export const DESK_WORKER_PATH = "/desk-sw.js";

/** The islands of the desk page, whose scripts the worker keeps before the page needs them. */
export const DESK_ISLANDS: readonly string[] = ["Desk"];

/** The static files every page loads (`routes/_app.tsx`). */
const PAGE_ASSETS = ["/styles.css", "/favicon.svg"];

/**
 * The files the worker keeps at install: the client runtime, the desk's islands with every chunk
 * they import (statically or lazily), and the page's static files, as `/_app/` URLs.
 *
 * @example
 * ```ts
 * deskPrecache(currentBuild().manifest); // ["/_app/client-…js", "/_app/Desk-…js", …]
 * ```
 */
export function deskPrecache(manifest: BuildManifest, islands: readonly string[] = DESK_ISLANDS): string[] {
  const files = new Set<string>();
  const visit = (name: string | undefined) => {
    if (!name || files.has(name) || !manifest.files[name]) return;
    files.add(name);
    const file = manifest.files[name];
    for (const next of [...file.imports, ...(file.lazy ?? [])]) visit(next);
  };
  visit(manifest.client);
  for (const island of islands) visit(manifest.islands[island]);
  for (const path of PAGE_ASSETS) visit(manifest.assets[path]);
  return [...files].map((name) => ASSET_PREFIX + name);
}

/**
 * The worker's source: its version and files, then {@link deskWorker} called with them.
 *
 * @example
 * ```ts
 * new Response(deskWorkerScript(manifest), { headers: { "content-type": "text/javascript" } });
 * ```
 */
export function deskWorkerScript(manifest: BuildManifest, islands: readonly string[] = DESK_ISLANDS): string {
  const version = manifest.sourceHash.slice(0, 16);
  return `"use strict";\n(${deskWorker.toString()})(${JSON.stringify(version)}, ${
    JSON.stringify(deskPrecache(manifest, islands))
  });\n`;
}

// What the worker uses of its global scope (the DOM types this project checks with lack them).
interface WorkerEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface WorkerFetchEvent extends WorkerEvent {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WorkerScope {
  registration: { scope: string };
  location: Location;
  clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install" | "activate", listener: (event: WorkerEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: WorkerFetchEvent) => void): void;
}

/**
 * The worker itself. It runs in the browser from its source text, so it uses nothing but its
 * arguments and the worker's globals (no imports, no closures over this module).
 */
export function deskWorker(version: string, precache: string[]): void {
  const sw = self as unknown as WorkerScope;
  const page = new URL(sw.registration.scope).pathname.replace(/\/$/, "");
  const prefix = `desk:${page}:`;
  const name = prefix + version;
  const key = "/.well-known/member-card-key.json";
  const kept = (res: Response) => {
    const headers = new Headers(res.headers);
    headers.set("x-desk-offline", "1");
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  };
  // Network first; the answer kept under `as`; offline, the kept one (marked), else the failure.
  const networkFirst = async (request: Request, as: string) => {
    const cache = await caches.open(name);
    try {
      const res = await fetch(request);
      if (res.ok && !res.redirected) await cache.put(as, res.clone());
      return res;
    } catch (e) {
      const hit = await cache.match(as);
      if (hit) return kept(hit);
      throw e;
    }
  };
  const cacheFirst = async (request: Request) => {
    const cache = await caches.open(name);
    const hit = await cache.match(request);
    if (hit) return hit;
    const res = await fetch(request);
    if (res.ok) await cache.put(request, res.clone());
    return res;
  };
  const install = async () => {
    const cache = await caches.open(name);
    await cache.addAll(precache);
    await Promise.allSettled([cache.add(key), cache.add("/museum.css")]);
    // The page as the staff member sees it (their session's cookie goes with it), and what it links
    // to (the museum's colours' versioned URL); a redirect to sign in is not kept.
    const res = await fetch(page, { credentials: "same-origin" }).catch(() => null);
    if (res?.ok && !res.redirected) {
      const html = await res.clone().text();
      await cache.put(page, res);
      const links = [...html.matchAll(/(?:href|src)="(\/(?:_app\/|museum\.css)[^"]*)"/g)]
        .map((m) => m[1].replaceAll("&amp;", "&"));
      await Promise.allSettled(links.map((url) => cache.add(url)));
    }
    await sw.skipWaiting();
  };
  const activate = async () => {
    for (const old of await caches.keys()) {
      if (old.startsWith(prefix) && old !== name) await caches.delete(old);
    }
    await sw.clients.claim();
  };
  sw.addEventListener("install", (event) => event.waitUntil(install()));
  sw.addEventListener("activate", (event) => event.waitUntil(activate()));
  sw.addEventListener("fetch", (event) => {
    const { request } = event;
    const url = new URL(request.url);
    if (request.method !== "GET" || url.origin !== sw.location.origin) return;
    if (request.mode === "navigate" && url.pathname === page) {
      event.respondWith(networkFirst(request, page));
    } else if (url.pathname.startsWith("/_app/")) {
      event.respondWith(cacheFirst(request));
    } else if (url.pathname === key || url.pathname === "/museum.css") {
      event.respondWith(networkFirst(request, url.pathname + url.search));
    }
  });
}
