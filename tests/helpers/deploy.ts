/**
 * Support for tests/deploy_test.ts: finding system tools, free ports, child processes whose output
 * is kept, and a stand-in for DNS and the internet between test clients and nginx.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import net from "node:net";

/** Whether env `CI` is set to something other than "", "0" or "false" (as the other helpers read it). */
export const IN_CI = !["", "0", "false"].includes((Deno.env.get("CI") ?? "").toLowerCase());

/**
 * The path of an executable on `PATH`, or in the sbin folders (nginx lives in /usr/sbin, which is
 * not on a non-root user's `PATH` on Debian); `null` when absent.
 *
 * @example
 * ```ts
 * const nginx = findTool("nginx"); // "/usr/sbin/nginx"
 * ```
 */
export function findTool(name: string): string | null {
  const dirs = [...(Deno.env.get("PATH") ?? "").split(":"), "/usr/local/sbin", "/usr/sbin", "/sbin"];
  for (const dir of dirs.filter(Boolean)) {
    try {
      const info = Deno.statSync(`${dir}/${name}`);
      if (info.isFile && ((info.mode ?? 0) & 0o111) !== 0) return `${dir}/${name}`;
    } catch { /* not here */ }
  }
  return null;
}

/**
 * A port nothing listens on now. Another process could take it before the caller binds it; the
 * kernel hands out ports at random, so that is rare, and callers that bind many retry.
 *
 * @example
 * ```ts
 * const port = freePort("127.0.0.1");
 * ```
 */
export function freePort(hostname = "0.0.0.0"): number {
  const listener = Deno.listen({ hostname, port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Whether this machine can listen on IPv6 (containers often cannot). */
export function hasIpv6(): boolean {
  try {
    Deno.listen({ hostname: "::", port: 0 }).close();
    return true;
  } catch {
    return false;
  }
}

/** A running child process whose output lines are kept. */
export interface Child {
  /** Every line written so far on standard output and standard error, in order. */
  lines: string[];
  /** Resolves when the process has exited and its output is read. */
  status: Promise<Deno.CommandStatus>;
  /** Resolves with the first line matching `re`; rejects if the process exits first or after `ms`. */
  waitFor(re: RegExp, ms: number): Promise<string>;
  /** Sends `signal` and waits for the exit; SIGKILL after `ms`. */
  stop(signal: Deno.Signal, ms?: number): Promise<void>;
}

/**
 * Starts a process, reading its output as it comes (so it never blocks on a full pipe).
 *
 * @example
 * ```ts
 * const child = spawnChild("/usr/sbin/nginx", ["-t"], { cwd: "/tmp" });
 * await child.status;
 * ```
 */
export function spawnChild(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; clearEnv?: boolean } = {},
): Child {
  const process = new Deno.Command(command, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.clearEnv ?? false,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: string[] = [];
  const waiters = new Set<{ re: RegExp; resolve: (line: string) => void }>();
  const read = async (stream: ReadableStream<Uint8Array>) => {
    let rest = "";
    const decoder = new TextDecoder();
    for await (const bytes of stream) {
      const parts = (rest + decoder.decode(bytes, { stream: true })).split("\n");
      rest = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        for (const waiter of waiters) if (waiter.re.test(line)) waiter.resolve(line);
      }
    }
    if (rest) lines.push(rest);
  };
  const reading = Promise.all([read(process.stdout), read(process.stderr)]);
  const status = process.status.then(async (s) => {
    await reading;
    return s;
  });
  let exited = false;
  status.then(() => exited = true);
  return {
    lines,
    status,
    waitFor(re, ms) {
      const seen = lines.find((line) => re.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((resolve, reject) => {
        const waiter = {
          re,
          resolve: (line: string) => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(line);
          },
        };
        waiters.add(waiter);
        const fail = (why: string) => {
          waiters.delete(waiter);
          reject(new Error(`${command} ${why} before writing ${re}:\n${lines.slice(-30).join("\n")}`));
        };
        const timer = setTimeout(() => fail(`took more than ${ms} ms`), ms);
        status.then((s) => {
          if (!waiters.has(waiter)) return;
          clearTimeout(timer);
          fail(`exited with ${s.code}`);
        });
      });
    },
    async stop(signal, ms = 10_000) {
      if (exited) return;
      try {
        process.kill(signal);
      } catch { /* already gone */ }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => timer = setTimeout(resolve, ms));
      await Promise.race([status, late]);
      clearTimeout(timer);
      if (!exited) {
        try {
          process.kill("SIGKILL");
        } catch { /* already gone */ }
      }
      await status;
    },
  };
}

/** Donors' way to a site that has no DNS entry: see {@link startDonorNetwork}. */
export interface DonorNetwork {
  /** An HTTP client for a donor at `address` (a loopback address such as 127.0.0.11). */
  donor(address: string): Deno.HttpClient;
  close(): Promise<void>;
}

/**
 * An HTTP proxy that stands in for DNS and routing: `https://<host>/` (a CONNECT to port 443) and
 * `http://<host>/` (port 80) reach the given local ports, any other host is refused, and each
 * connection leaves from the loopback address the client came from, so nginx sees every test
 * client as a donor with an address of its own, and TLS runs end to end with the real name (SNI,
 * certificate check, `Host`).
 *
 * @example
 * ```ts
 * const net = await startDonorNetwork("donate.museum.org", { http: 8080, https: 8443 }, caPem);
 * const res = await fetch("https://donate.museum.org/health", { client: net.donor("127.0.0.11") });
 * ```
 */
export async function startDonorNetwork(
  host: string,
  ports: { http: number; https: number },
  caCert: string,
): Promise<DonorNetwork> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const server = net.createServer((socket) => {
    track(socket);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      socket.off("data", onData);
      socket.pause();
      const line = head.subarray(0, head.indexOf("\r\n")).toString("latin1");
      // A CONNECT for https, or a plain request in absolute form (`GET http://host/path`).
      const target = line.match(/^CONNECT ([^\s:]+):(\d+) /) ??
        line.match(/^[A-Z]+ http:\/\/([^\s/:]+)(?::(\d+))?\//);
      const port = target?.[2] ?? "80";
      const to = target?.[1] !== host ? 0 : port === "443" ? ports.https : port === "80" ? ports.http : 0;
      if (!to) {
        socket.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
        return;
      }
      const upstream = net.connect({ host: "127.0.0.1", port: to, localAddress: socket.remoteAddress });
      track(upstream);
      upstream.on("close", () => socket.destroy());
      socket.on("close", () => upstream.destroy());
      upstream.on("connect", () => {
        if (line.startsWith("CONNECT ")) {
          socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          upstream.write(head.subarray(end + 4));
        } else {
          upstream.write(head);
        }
        socket.pipe(upstream);
        upstream.pipe(socket);
        socket.resume();
      });
    };
    socket.on("data", onData);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const clients: Deno.HttpClient[] = [];
  return {
    donor(address) {
      const client = Deno.createHttpClient({
        caCerts: [caCert],
        proxy: { url: `http://127.0.0.1:${port}` },
        localAddress: address,
      });
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) client.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
