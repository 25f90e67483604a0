import assert from "node:assert/strict";
import { securityHeaders } from "./security.ts";

const directive = (csp: string, name: string) =>
  csp.split(";").map((d) => d.trim()).find((d) => d.startsWith(`${name} `));

Deno.test("CSP: forms post to our own origin, and to the provider's page only where one is configured", async () => {
  const pelecard = "https://gateway21.pelecard.biz";
  const withProvider = securityHeaders({
    frameSrc: [pelecard],
    formAction: [pelecard],
    framable: (path) => path.startsWith("/sandbox/pay/"),
  });
  const sandbox = securityHeaders({ framable: (path) => path.startsWith("/sandbox/pay/") });
  await Promise.all([withProvider.ready, sandbox.ready]);
  for (const path of ["/en/", "/sandbox/pay/x", "/api/feature-flags"]) {
    // The card update's form is answered with a redirect to the provider's page: a form's
    // redirect is checked against form-action too.
    const csp = withProvider.headers(path, "n")["content-security-policy"];
    assert.equal(directive(csp, "form-action"), `form-action 'self' ${pelecard}`, path);
    assert.equal(directive(csp, "frame-src"), `frame-src 'self' ${pelecard}`, path);
    const own = sandbox.headers(path, "n")["content-security-policy"];
    assert.equal(directive(own, "form-action"), "form-action 'self'", path);
  }
});

Deno.test("Permissions-Policy: the camera only on the paths that scan (the front desk), nowhere else", async () => {
  const security = securityHeaders({ camera: (path) => path === "/he/desk" });
  await security.ready;
  assert.equal(
    security.headers("/he/desk", "n")["permissions-policy"],
    "camera=(self), microphone=(), geolocation=()",
  );
  for (const path of ["/he/", "/he/admin", "/api/visits"]) {
    assert.equal(
      security.headers(path, "n")["permissions-policy"],
      "camera=(), microphone=(), geolocation=()",
    );
  }
  const headers = new Headers();
  security.apply(headers, "/he/desk", "n");
  assert.equal(headers.get("permissions-policy"), "camera=(self), microphone=(), geolocation=()");
});
