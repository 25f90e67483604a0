import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { type ApiClient, createApiClient } from "./admin_api.ts";
import { readSession, type Session } from "./admin_session.ts";
import { Guard } from "./Guard.tsx";
import { type Translate, translator } from "./texts.ts";

/** What every back-office island starts from. */
export interface AdminFrame {
  t: Translate;
  /** The refreshing API client; a session the server ends sends the admin to {@link AdminFrame.loginHref}. */
  api: ApiClient;
  /** The stored session: undefined until the browser has read local storage (and always on the server). */
  session: Session | null | undefined;
  /** `/{lang}/login`. */
  loginHref: string;
}

/**
 * The frame of a back-office page's island: its texts, the API client that sends a signed-out
 * admin to `/{lang}/login`, and the stored session, read once in the browser. `onSession` runs
 * then, with the session or null, and may return its cleanup; the page's requests start there
 * (the server refuses a role that may not make them, and the island shows that refusal).
 *
 * @example
 * ```tsx
 * const frame = useAdminFrame(lang, props.texts, (stored) => { if (stored) load(); });
 * return <AdminGuard frame={frame}>{body}</AdminGuard>;
 * ```
 */
export function useAdminFrame(
  lang: string,
  texts: Record<string, string>,
  onSession?: (stored: Session | null) => void | (() => void),
): AdminFrame {
  const t = useMemo(() => translator(texts), []);
  const loginHref = `/${lang}/login`;
  const api = useMemo(() => createApiClient({ onSignedOut: () => location.replace(loginHref) }), []);
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  useEffect(() => {
    const stored = readSession();
    setSession(stored);
    return onSession?.(stored);
  }, []);
  return { t, api, session, loginHref };
}

/**
 * Shows a back-office page once its session is read, and the same markup before (the server's
 * render, which the browser hydrates); without a stored session it replaces the page with
 * `/{lang}/login` (`Guard.tsx`).
 *
 * @example
 * ```tsx
 * <AdminGuard frame={frame}>{body}</AdminGuard>
 * ```
 */
export function AdminGuard(
  props: { frame: Pick<AdminFrame, "session" | "loginHref">; children: ComponentChildren },
) {
  const { session, loginHref } = props.frame;
  return (
    <Guard
      allowed={session === undefined ? undefined : session !== null}
      redirectTo={loginHref}
      pending={props.children}
    >
      {props.children}
    </Guard>
  );
}
