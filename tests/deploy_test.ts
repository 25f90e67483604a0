/**
 * The "your own servers" recipe of docs/deployment.md works as written: the systemd unit passes `systemd-analyze
 * verify`; the unit's `ExecStart=` line (its Deno permissions and flags) starts the app with the
 * settings file's values; and deploy/nginx.conf, with only ports, paths and a test certificate
 * swapped in, serves it over HTTPS: the redirect, /health, the app's headers on uncompressed pages,
 * the /_app/ cache, the body limits, the donor API, and the client address the app throttles by.
 */
import assert from "node:assert/strict";
import { MAX_FAILED_LOGINS } from "@/lib/staff/login_throttle.ts";
import { ensureTestBuild, ROOT } from "@/tests/helpers/app.ts";
import { findTool, freePort, hasIpv6, IN_CI, spawnChild, startDonorNetwork } from "@/tests/helpers/deploy.ts";

const UNIT = `${ROOT}/deploy/museum-donations.service`;
const SITE = `${ROOT}/deploy/nginx.conf`;
const SETTINGS = `${ROOT}/deploy/app.env.example`;
/** Where docs/deployment.md installs the app, and the unit expects it. */
const APP_DIR = "/opt/museum-donations";

const systemdAnalyze = findTool("systemd-analyze");
const nginx = findTool("nginx");
const openssl = findTool("openssl");
const missing = [nginx ? "" : "nginx", openssl ? "" : "openssl"].filter(Boolean).join(" and ");

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const randomHex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");

/** Runs a command to its end. */
async function run(command: string, args: string[], cwd?: string) {
  const out = await new Deno.Command(command, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

function isExecutable(path: string): boolean {
  try {
    return ((Deno.statSync(path).mode ?? 0) & 0o111) !== 0;
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** The `[Service]` settings of a unit file: name → values, in order. */
function serviceSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    section = line.match(/^\[(.+)\]$/)?.[1] ?? section;
    const eq = line.indexOf("=");
    if (section !== "Service" || eq < 0) continue;
    const key = line.slice(0, eq).trim();
    settings.set(key, [...(settings.get(key) ?? []), line.slice(eq + 1).trim()]);
  }
  return settings;
}

function only(settings: Map<string, string[]>, key: string): string {
  const values = settings.get(key) ?? [];
  assert.equal(values.length, 1, `the unit should have one ${key}=`);
  return values[0];
}

/** Splits a command line or `Environment=` value into words, as systemd does for plain words. */
function words(value: string, what: string): string[] {
  // Quoting, escapes and specifiers would need systemd's own parser: fail rather than guess.
  assert.doesNotMatch(value, /["'\\$%]/, `${what}: only plain words are understood here`);
  return value.split(/\s+/).filter(Boolean);
}

/** A settings file as systemd's `EnvironmentFile=` and `docker --env-file` read this one. */
function envFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    if (!line.trim() || line.trimStart().startsWith("#")) continue;
    const match = line.match(/^([A-Z_][A-Z0-9_]*)=(.*)$/);
    assert.ok(match, `not KEY=value: ${line}`);
    env[match[1]] = match[2];
  }
  return env;
}

/** Replaces `from` (which must occur exactly once) in nginx.conf's copy. */
function swap(text: string, from: string, to: string): string {
  const count = text.split(from).length - 1;
  assert.equal(
    count,
    1,
    `deploy/nginx.conf should contain "${from}" once (found ${count}): update this test`,
  );
  return text.replace(from, () => to);
}

Deno.test({
  name: "deploy: systemd-analyze verify accepts the unit",
  ignore: !systemdAnalyze,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "deploy-unit-" });
    try {
      const text = await Deno.readTextFile(UNIT);
      let unit = UNIT;
      const deno = words(only(serviceSettings(text), "ExecStart"), "ExecStart")[0];
      // verify checks that the program exists; where Deno is not where docs/deployment.md installs it (a
      // CI machine running `npx deno`), a copy names this test's Deno instead.
      if (!isExecutable(deno)) {
        unit = `${dir}/museum-donations.service`;
        await Deno.writeTextFile(unit, text.replace(`ExecStart=${deno} `, `ExecStart=${Deno.execPath()} `));
      }
      const out = await run(systemdAnalyze!, ["verify", unit]);
      const said = (out.stdout + out.stderr).trim();
      assert.equal(out.code, 0, said);
      // Unknown keys and bad values are only warned about, with the status still 0.
      const aboutUnit = said.split("\n").filter((line) => line.includes("museum-donations"));
      assert.deepEqual(aboutUnit, [], said);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
if (!systemdAnalyze) {
  console.log("deploy: the unit check is skipped: systemd-analyze not found (it comes with systemd)");
}

Deno.test({
  name: "deploy: the unit's command behind deploy/nginx.conf serves the site over HTTPS",
  ignore: missing !== "" && !IN_CI,
  async fn(t) {
    if (missing) throw new Error(`CI is set, so ${missing} must be installed (.ci/run installs them)`);
    const cleanup: (() => unknown)[] = [];
    try {
      // The unit's process may write only data/, so it cannot build: the install step does.
      await ensureTestBuild();
      const tmp = await Deno.makeTempDir({ prefix: "deploy-test-" });
      cleanup.push(() => Deno.remove(tmp, { recursive: true }));

      const site = await Deno.readTextFile(SITE);
      const serverName = site.match(/^\s*server_name\s+([^\s;]+);/m)?.[1];
      assert.ok(serverName, "deploy/nginx.conf names its server");

      // The settings file: the example, with a secret, the sandbox (no Pelecard account here), a
      // free port, and a KV file in data/ instead of PostgreSQL (the example's alternative).
      const example = envFile(await Deno.readTextFile(SETTINGS));
      assert.equal(example.DENO_ENV, "production");
      assert.equal(example.PUBLIC_URL, `https://${serverName}`);
      assert.equal(example.LISTEN_HOST, "127.0.0.1");
      assert.equal(example.TRUST_PROXY, "1");
      const appPort = freePort("127.0.0.1");
      const kvPath = `${ROOT}/data/deploy-test-${crypto.randomUUID()}.sqlite3`;
      await Deno.mkdir(`${ROOT}/data`, { recursive: true });
      cleanup.push(() =>
        Promise.all(["", "-wal", "-shm", "-journal"].map((s) => Deno.remove(kvPath + s).catch(() => {})))
      );
      const { DATABASE_URL: _, ...kept } = example;
      const settings = {
        ...kept,
        APP_SECRET: randomHex(32),
        PAYMENT_PROVIDER: "sandbox",
        SANDBOX_ALLOWED: "1",
        PORT: String(appPort),
        KV_PATH: kvPath,
      };

      // The unit's command, environment and folder, with the repository where /opt/museum-donations is.
      const service = serviceSettings(await Deno.readTextFile(UNIT));
      assert.equal(only(service, "WorkingDirectory"), APP_DIR);
      const [unitDeno, ...args] = words(only(service, "ExecStart").replaceAll(APP_DIR, ROOT), "ExecStart");
      const unitEnv = Object.fromEntries(
        (service.get("Environment") ?? []).flatMap((value) =>
          words(value.replaceAll(APP_DIR, ROOT), "Environment")
        )
          .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
      );
      // The install step fills DENO_DIR; here this machine's cache is the filled one (a .deno/ in
      // the repository would be a stray, empty cache).
      unitEnv.DENO_DIR = JSON.parse((await run(Deno.execPath(), ["info", "--json"], tmp)).stdout).denoDir;
      const app = spawnChild(isExecutable(unitDeno) ? unitDeno : Deno.execPath(), args, {
        cwd: ROOT,
        // What systemd gives a service, then Environment=, then EnvironmentFile= (which wins).
        env: {
          PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
          ...unitEnv,
          ...settings,
        },
        clearEnv: true,
      });
      cleanup.push(() => app.stop("SIGTERM"));
      const listening = JSON.parse(await app.waitFor(/"msg":"listening"/, 30_000));
      assert.equal(listening.url, `http://127.0.0.1:${appPort}/`);
      assert.equal(listening.env, "production");

      // nginx: the site file as docs/deployment.md installs it (inside http { }), changed only where this
      // machine differs: ports, the certificate, and nginx's folders.
      const cert = `${tmp}/fullchain.pem`;
      const key = `${tmp}/privkey.pem`;
      const made = await run(openssl!, [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1"],
        ...["-subj", `/CN=${serverName}`, "-addext", `subjectAltName=DNS:${serverName}`],
        // A server certificate, not a CA: rustls refuses a CA certificate as the server's.
        ...["-addext", "basicConstraints=critical,CA:FALSE", "-keyout", key, "-out", cert],
      ]);
      assert.equal(made.code, 0, made.stderr);
      const ports = { http: freePort(), https: freePort() };
      const ipv6 = hasIpv6();
      let conf = site;
      conf = swap(conf, "listen 80;", `listen ${ports.http};`);
      conf = swap(conf, "listen [::]:80;", ipv6 ? `listen [::]:${ports.http};` : "");
      conf = swap(conf, "listen 443 ssl http2;", `listen ${ports.https} ssl http2;`);
      conf = swap(conf, "listen [::]:443 ssl http2;", ipv6 ? `listen [::]:${ports.https} ssl http2;` : "");
      conf = swap(conf, "server 127.0.0.1:8000 ", `server 127.0.0.1:${appPort} `);
      conf = swap(conf, `/etc/letsencrypt/live/${serverName}/fullchain.pem`, cert);
      conf = swap(conf, `/etc/letsencrypt/live/${serverName}/privkey.pem`, key);
      const cachePath = site.match(/^proxy_cache_path\s+(\S+)/m)?.[1] ?? "";
      // nginx creates only the last folder of the cache's path: the one above must come with nginx.
      const cacheParent = cachePath.slice(0, cachePath.lastIndexOf("/"));
      assert.ok(
        isDirectory(cacheParent),
        `${cacheParent}, above proxy_cache_path, is missing here; nginx won't create it`,
      );
      conf = swap(conf, `proxy_cache_path ${cachePath} `, `proxy_cache_path ${tmp}/cache `);
      conf = swap(conf, "root /var/www/acme;", `root ${tmp}/acme;`);
      const accessLog = "/var/log/nginx/museum-donations.access.log";
      assert.equal(conf.split(accessLog).length - 1, 2, "both servers write the redacted access log");
      conf = conf.replaceAll(accessLog, `${tmp}/access.log`);
      assert.doesNotMatch(conf.replace(/#.*/g, ""), /\/(etc|var)\//, "every system path was swapped");
      await Deno.writeTextFile(`${tmp}/museum-donations.conf`, conf);
      await Deno.writeTextFile(
        `${tmp}/nginx.conf`,
        `pid ${tmp}/nginx.pid;
error_log ${tmp}/error.log;
events {}
http {
    access_log ${tmp}/access.log;
    client_body_temp_path ${tmp}/client_body;
    proxy_temp_path ${tmp}/proxy;
    fastcgi_temp_path ${tmp}/fastcgi;
    uwsgi_temp_path ${tmp}/uwsgi;
    scgi_temp_path ${tmp}/scgi;
    # As in Debian's nginx.conf: the site must turn it off for its pages.
    gzip on;
    include ${tmp}/museum-donations.conf;
}
`,
      );
      // With a root master, nginx's workers run as nobody: they must reach the cache and ACME folders.
      if (Deno.uid() === 0) await Deno.chmod(tmp, 0o755);
      const nginxArgs = ["-p", `${tmp}/`, "-c", `${tmp}/nginx.conf`, "-e", `${tmp}/error.log`];
      const test = await run(nginx!, [...nginxArgs, "-t"]);
      assert.equal(test.code, 0, `nginx -t: ${test.stderr}`);
      const proxy = spawnChild(nginx!, [...nginxArgs, "-g", "daemon off;"]);
      cleanup.push(() => proxy.stop("SIGTERM"));
      for (let tries = 0;; tries++) {
        try {
          (await Deno.connect({ hostname: "127.0.0.1", port: ports.https })).close();
          break;
        } catch (e) {
          const log = await Deno.readTextFile(`${tmp}/error.log`).catch(() => "");
          if (tries > 200) throw new Error(`nginx did not listen: ${(e as Error).message}\n${log}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }

      const network = await startDonorNetwork(serverName, ports, await Deno.readTextFile(cert));
      cleanup.push(() => network.close());
      const donor = network.donor("127.0.0.11");
      const request = (path: string, init: RequestInit & { client?: Deno.HttpClient } = {}) =>
        fetch(path.startsWith("http:") ? path : `https://${serverName}${path}`, {
          client: donor,
          redirect: "manual",
          signal: AbortSignal.timeout(15_000),
          ...init,
        });

      await t.step("http:// answers a redirect to https://, except ACME challenges", async () => {
        const res = await request(`http://${serverName}/en/?lng=he`);
        await res.body?.cancel();
        assert.equal(res.status, 301);
        assert.equal(res.headers.get("location"), `https://${serverName}/en/?lng=he`);
        assert.equal(res.headers.get("server"), "nginx");
        const token = crypto.randomUUID();
        await Deno.mkdir(`${tmp}/acme/.well-known/acme-challenge`, { recursive: true });
        await Deno.writeTextFile(`${tmp}/acme/.well-known/acme-challenge/${token}`, `${token}.key`);
        const acme = await request(`http://${serverName}/.well-known/acme-challenge/${token}`);
        assert.equal(acme.status, 200);
        assert.equal(await acme.text(), `${token}.key`);
      });

      await t.step("GET /health answers 200, from nginx without its version", async () => {
        const res = await request("/health");
        assert.equal(res.status, 200, await res.text());
        assert.equal(res.headers.get("server"), "nginx");
      });

      await t.step(
        "a page keeps the app's CSP and HSTS, is not compressed, and carries nginx's id",
        async () => {
          const res = await request("/en/", {
            headers: { "accept-encoding": "gzip, deflate, br", "x-request-id": "chosen-by-the-client" },
          });
          const html = await res.text();
          assert.equal(res.status, 200);
          assert.match(html, /<html lang="en" dir="ltr">/);
          assert.equal(res.headers.get("content-encoding"), null);
          const csp = res.headers.get("content-security-policy") ?? "";
          const nonce = csp.match(/script-src 'nonce-([^']+)' 'strict-dynamic'/)?.[1];
          assert.ok(nonce && html.includes(`nonce="${nonce}"`), csp);
          assert.match(csp, /frame-ancestors 'none'/);
          assert.equal(res.headers.get("strict-transport-security"), "max-age=63072000; includeSubDomains");
          // nginx replaces the client's id with its own, and the app logs the request under it.
          const id = res.headers.get("x-request-id") ?? "";
          assert.match(id, /^[0-9a-f]{32}$/);
          const logged = JSON.parse(
            await app.waitFor(new RegExp(`"msg":"request".*"requestId":"${id}"`), 5_000),
          );
          assert.match(logged.path, /^\/en\/?$/);
          assert.equal(logged.status, 200);
        },
      );

      await t.step("the terminal-sale location (its own read timeout) reaches the app", async () => {
        const page = await request("/en/terminal-payment/7");
        assert.equal(page.status, 200);
        assert.match(await page.text(), /<html lang="en"/);
        const sale = await request("/api/payment/pay-emv", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        });
        const answer = await sale.json();
        assert.equal(answer.statusCode, sale.status, "the app's JSON error, not nginx's");
      });

      await t.step(
        "/_app/ files come compressed by the app, from nginx's cache the second time",
        async () => {
          const manifest = JSON.parse(await Deno.readTextFile(`${ROOT}/_build/manifest.json`));
          const path = `/_app/${manifest.client}`;
          const variants = [["br", ".br"], ["gzip", ".gz"], ["identity", ""]] as const;
          // fetch decompresses the body; the length says which file the app sent.
          const plain = await Deno.readFile(`${ROOT}/_build/static/${manifest.client}`);
          for (const [encoding, suffix] of variants) {
            const sent = await Deno.readFile(`${ROOT}/_build/static/${manifest.client}${suffix}`);
            const seen = [];
            for (let i = 0; i < 2; i++) {
              const res = await request(path, { headers: { "accept-encoding": encoding } });
              assert.equal(res.status, 200);
              assert.equal(res.headers.get("content-encoding"), suffix ? encoding : null);
              assert.equal(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
              assert.equal(res.headers.get("content-length"), String(sent.length), `${encoding} length`);
              assert.deepEqual(new Uint8Array(await res.arrayBuffer()), plain, `${encoding} body`);
              seen.push(res.headers.get("x-cache-status"));
            }
            assert.deepEqual(seen, ["MISS", "HIT"], encoding);
          }
          // Each encoding keeps its own copy: the first is still cached after the others.
          const again = await request(path, { headers: { "accept-encoding": "br" } });
          await again.body?.cancel();
          assert.equal(again.headers.get("x-cache-status"), "HIT");
          assert.equal(again.headers.get("content-encoding"), "br");
        },
      );

      const donorBody = {
        firstName: "Dana",
        lastName: "Levi",
        email: "Dana.Levi@Example.org",
        country: "Israel",
      };
      const postJson = (path: string, body: unknown, init: RequestInit & { client?: Deno.HttpClient } = {}) =>
        request(path, {
          method: "POST",
          body: JSON.stringify(body),
          ...init,
          headers: { "content-type": "application/json", ...init.headers },
        });

      await t.step("bodies over 80 KiB stop at nginx; over 64 KiB the app answers its JSON 413", async () => {
        const huge = await postJson("/api/user", { ...donorBody, country: "x".repeat(100 * 1024) });
        assert.equal(huge.status, 413);
        assert.match(await huge.text(), /<center>nginx<\/center>/);
        const big = await postJson("/api/user", { ...donorBody, country: "x".repeat(70 * 1024) });
        assert.equal(big.status, 413);
        assert.match((await big.json()).message, /larger than 65536 bytes/);
      });

      await t.step("a donor is created and read back through nginx", async () => {
        const created = await postJson("/api/user", donorBody);
        const { id } = await created.json();
        assert.equal(created.status, 201);
        const read = await request(`/api/user/${id}`);
        assert.equal(read.status, 200);
        const donor = await read.json();
        assert.equal(donor.id, id);
        assert.equal(donor.email, "dana.levi@example.org");

        // Neither log holds the donor's id or a query string: nginx's access log writes the path
        // with :id, the app's request lines too.
        const cancel = await request(`/en/cancel-subscription?userId=${id}`);
        assert.equal(cancel.status, 200);
        await cancel.body?.cancel();
        const back = await request(`/payments/return/${id}?SandboxTransactionId=${id}`);
        await back.body?.cancel();
        const notify = await postJson(`/api/payment/notify/sandbox?UserKey=${id}`, {});
        await notify.body?.cancel();
        const wanted = [
          "GET /api/user/:id ",
          "GET /en/cancel-subscription ",
          "GET /payments/return/:id ",
          "POST /api/payment/notify/sandbox ",
        ];
        let access = "";
        for (const deadline = Date.now() + 5000; Date.now() < deadline;) {
          access = await Deno.readTextFile(`${tmp}/access.log`);
          if (wanted.every((w) => access.includes(w))) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        for (const w of wanted) assert.ok(access.includes(`"${w}HTTP/`), `${w} in ${access}`);
        assert.ok(!access.includes(id), access);
        assert.doesNotMatch(access, /"[A-Z]+ [^" ]*\?/, "no query string in the access log");
        await app.waitFor(/"path":"\/api\/payment\/notify\/sandbox"/, 5_000);
        assert.deepEqual(app.lines.filter((line) => line.includes(id)), [], "the app's log");
      });

      await t.step(
        "the app throttles by the address nginx appends, not the client's X-Forwarded-For",
        async () => {
          // Two clients with addresses of their own; both reach the app from nginx's 127.0.0.1.
          const attacker = network.donor("127.0.0.12");
          const neighbour = network.donor("127.0.0.13");
          const login = (client: Deno.HttpClient, email: string, forwardedFor: string) =>
            postJson("/api/auth/admin/login", { email, password: "not-the-password-0123" }, {
              client,
              headers: { "x-forwarded-for": forwardedFor },
            });
          // A new email and a new claimed address each time: only nginx's address repeats.
          for (let i = 1; i <= MAX_FAILED_LOGINS; i++) {
            const res = await login(attacker, `guess${i}@example.org`, `198.51.100.${i}`);
            assert.equal(res.status, 401, await res.text());
          }
          const blocked = await login(attacker, "guess-again@example.org", "198.51.100.99");
          await blocked.body?.cancel();
          assert.equal(blocked.status, 429);
          assert.ok(Number(blocked.headers.get("retry-after")) > 0);
          // Another address is not throttled, even when it claims to be the throttled one.
          const other = await login(neighbour, "someone@example.org", "127.0.0.12");
          assert.equal(other.status, 401, await other.text());
          // nginx writes a request's log line after the response has left, so the last line can
          // lag behind the answer the client already holds: read until it is there (or 5 s pass).
          const count = (access: string, from: string) => {
            let n = 0;
            for (const line of access.split("\n")) {
              if (line.startsWith(`${from} `) && line.includes("/api/auth/admin/login")) n++;
            }
            return n;
          };
          let access = "";
          for (const deadline = Date.now() + 5000; Date.now() < deadline;) {
            access = await Deno.readTextFile(`${tmp}/access.log`);
            if (count(access, "127.0.0.12") > MAX_FAILED_LOGINS && count(access, "127.0.0.13") > 0) break;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          assert.equal(count(access, "127.0.0.12"), MAX_FAILED_LOGINS + 1);
          assert.equal(count(access, "127.0.0.13"), 1);
          assert.doesNotMatch(access, /\/health/, "monitors' requests stay out of the access log");
        },
      );

      await t.step("the app logged no error", () => {
        const errors = app.lines.filter((line) => !line.startsWith("{") || line.includes('"level":"error"'));
        assert.deepEqual(errors, []);
      });
    } finally {
      for (const undo of cleanup.reverse()) {
        await Promise.resolve().then(undo).catch((e) => console.error("deploy test cleanup:", e));
      }
    }
  },
});
if (missing && !IN_CI) {
  console.log(
    `deploy: the nginx test is skipped: ${missing} not found (.ci/run installs them; under CI this fails)`,
  );
}
