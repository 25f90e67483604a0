/**
 * `scripts/relayout.ts` on a small repository of its own: a folder moved by `relayout.json` takes its
 * files along, imports of them and root-relative paths written in strings and Markdown follow
 * (files and folders alike), what is not under the moved folder stays, and a second run changes
 * nothing. The fixture's folders are named in no `scripts/relayout.json`, since the tool rewrites this
 * file too.
 *
 * @module
 */
import assert from "node:assert/strict";

const TOOL = new URL("../scripts/relayout.ts", import.meta.url);

/** Runs a command in `cwd`, failing the test with its output when it fails. */
async function run(cwd: string, cmd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.ok(out.success, `${cmd} ${args.join(" ")}: ${text}`);
  return text;
}

Deno.test("relayout: a moved folder takes its files, imports, file paths and folder paths along; a rerun changes nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const files: Record<string, string> = {
      "scripts/relayout.json": JSON.stringify({ folders: { "lib/old_place/": "lib/new_place/" }, files: {} }),
      "lib/old_place/sender.ts":
        'import { render } from "@/lib/old_place/templates/render.ts";\nexport const send = render;\n',
      "lib/old_place/templates/render.ts": "export const render = 1;\n",
      "lib/old_placement/box.ts": "export const box = 2;\n",
      "lib/app/app.ts": 'import { send } from "@/lib/old_place/sender.ts";\nexport const app = send;\n',
      "README.md": [
        "The folder (`lib/old_place/`): its sender `lib/old_place/sender.ts`, its templates (`lib/old_place/templates/`).",
        "Not it: `lib/old_placement/`, `lib/old_place/gone/`, the route `routes/old_place/`.",
        "",
      ].join("\n"),
    };
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(`${dir}/${path.split("/").slice(0, -1).join("/")}`, { recursive: true });
      await Deno.writeTextFile(`${dir}/${path}`, text);
    }
    await Deno.copyFile(TOOL, `${dir}/scripts/relayout.ts`);
    await run(dir, "git", "init", "-q");
    await run(dir, "git", "add", "-A");

    await run(dir, Deno.execPath(), "run", "-A", "scripts/relayout.ts");
    const read = (path: string) => Deno.readTextFile(`${dir}/${path}`);
    assert.equal(
      await read("lib/new_place/sender.ts"),
      'import { render } from "@/lib/new_place/templates/render.ts";\nexport const send = render;\n',
    );
    assert.equal(await read("lib/new_place/templates/render.ts"), files["lib/old_place/templates/render.ts"]);
    assert.equal(
      await read("lib/old_placement/box.ts"),
      files["lib/old_placement/box.ts"],
      "a look-alike stays",
    );
    assert.equal(
      await read("lib/app/app.ts"),
      'import { send } from "@/lib/new_place/sender.ts";\nexport const app = send;\n',
    );
    assert.equal(
      await read("README.md"),
      [
        "The folder (`lib/new_place/`): its sender `lib/new_place/sender.ts`, its templates (`lib/new_place/templates/`).",
        "Not it: `lib/old_placement/`, `lib/old_place/gone/`, the route `routes/old_place/`.",
        "",
      ].join("\n"),
    );

    const again = await run(dir, Deno.execPath(), "run", "-A", "scripts/relayout.ts");
    assert.match(again, /0 files moved, 0 files rewritten/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
