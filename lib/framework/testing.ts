/**
 * Test support for the route layer: a real Hono app with a fixture manifest mounted, answering
 * through `app.request` (no network), with the errors that reached `onError` kept for asserts. The
 * fixtures are built in each test: route modules as inline objects, a lazy manifest as functions
 * returning promises.
 *
 * @module
 */
import { Hono } from "hono";
import { type MountOptions, mountRoutes } from "./server.ts";
import type { LazyManifest, Manifest } from "./types.ts";

/** The state the fixture routes get: a fresh object per request, which middlewares may fill. */
export type TestState = Record<string, unknown>;

/** The Hono env of the test app: the route state and a per-request CSP nonce. */
export type TestEnv = { Variables: { state: TestState; nonce: string } };

/** A mounted test app. */
export interface TestApp {
  app: Hono<TestEnv>;
  /** Messages of the errors `onError` answered with a 500. */
  errors: string[];
  /** Answers a request for `path` (e.g. `/en/page?x=1`), its body read as text. */
  request(path: string, init?: RequestInit): Promise<{ res: Response; text: string }>;
}

/**
 * Mounts `manifest` on a new app. An earlier middleware sets `x-request-id` on the context (it
 * must be on every answer) and a nonce `n<count>`; `options` override the mount options.
 *
 * @example
 * ```ts
 * const { request } = testApp({ routes: { "index.ts": { handler: () => new Response("hi") } }, islands: {} });
 * const { res, text } = await request("/");
 * ```
 */
export function testApp(
  manifest: Manifest | LazyManifest,
  options: Partial<MountOptions<TestState, TestEnv>> = {},
): TestApp {
  const app = new Hono<TestEnv>({ strict: false });
  const errors: string[] = [];
  let count = 0;
  app.use(async (c, next) => {
    count++;
    c.header("x-request-id", `r${count}`);
    c.set("nonce", `n${count}`);
    c.set("state", {});
    await next();
  });
  mountRoutes(app, manifest, { state: (c) => c.get("state"), nonce: (c) => c.get("nonce"), ...options });
  app.onError((err, c) => {
    errors.push(err.message);
    return c.text("error", 500);
  });
  const request = async (path: string, init?: RequestInit) => {
    const res = await app.request(path, init);
    return { res, text: await res.text() };
  };
  return { app, errors, request };
}
