/**
 * The back-office frame on the server: before the session is read, the page's body is rendered
 * as it will be hydrated, with the frame's texts; the guard redirects only in the browser.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { AdminGuard, useAdminFrame } from "./AdminFrame.tsx";

function Page(props: { lang: string; texts: Record<string, string> }) {
  const frame = useAdminFrame(props.lang, props.texts, () => {
    throw new Error("effects do not run on the server");
  });
  return (
    <AdminGuard frame={frame}>
      <p>{frame.t("greeting")} {frame.loginHref} {String(frame.session)}</p>
    </AdminGuard>
  );
}

Deno.test("AdminFrame: the server renders the body, session unread, login link of the language", () => {
  const html = renderToString(<Page lang="he" texts={{ greeting: "שלום" }} />);
  assert.equal(html.replace(/<!-- -->/g, ""), "<p>שלום /he/login undefined</p>");
});

Deno.test("AdminGuard: a read session shows the body, no session shows nothing (the browser leaves)", () => {
  const body = <p>body</p>;
  assert.equal(
    renderToString(<AdminGuard frame={{ session: null, loginHref: "/en/login" }}>{body}</AdminGuard>),
    "",
  );
  const session = {
    accessToken: "a",
    refreshToken: "r",
    admin: { id: "1", email: "a@b.c", name: "A", createdAt: "", status: "approved" as const },
  };
  assert.equal(
    renderToString(<AdminGuard frame={{ session, loginHref: "/en/login" }}>{body}</AdminGuard>),
    "<p>body</p>",
  );
});
