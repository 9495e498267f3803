// docs/cli.md's commands, run as written: every `npx latchkey` line of the schema and doctor
// sections runs in an app directory (a config with database sessions, an email provider and
// GitHub; $DATABASE_URL, and DATABASE_URL in its .env.local, is a SQLite file there, by absolute path), and the sample doctor output is what doctor prints.
import { afterAll, expect, it } from "vitest"
import { runCli } from "../../src/cli/commands.js"
import { parseEnvText } from "../../src/cli/env-files.js"
import { snippetsOf } from "../docs/support.js"
import { directoryHost } from "./schema-support-io.js"

const hosts: Array<ReturnType<typeof directoryHost>> = []
afterAll(() => hosts.forEach((host) => host.remove()))

const GITHUB = JSON.stringify(new URL("../../src/providers/github.ts", import.meta.url).pathname)

function app() {
  const host = directoryHost({}, [true, true, true])
  hosts.push(host)
  // DATABASE_URL in .env.local, for `migrate` without a URL: the same SQLite file as "$DATABASE_URL" below.
  host.write(".env.local", `AUTH_SECRET=Zq3vN8xK1pR7mT2wY6bH9cJ4fL0sD5gA_e-uVkXoPiQ\nAUTH_URL=http://localhost:3000/auth\nAUTH_GITHUB_ID=Iv1.x\nAUTH_GITHUB_SECRET=s\nDATABASE_URL=sqlite:${host.dir}/app.db\n`)
  host.write("src/auth.mjs", `import GitHub from ${GITHUB}\nexport default { providers: [GitHub, { id: "email", type: "email" }], session: { strategy: "database" } }`)
  return host
}

/** Each shell line of the page: its arguments, $DATABASE_URL replaced by a SQLite file of the app. */
const commands = snippetsOf("cli.md")
  .filter((snippet) => snippet.lang === "sh")
  .flatMap((snippet) => snippet.code.split("\n").filter((line) => line.startsWith("npx latchkey ")))
  .map((line) => line.slice("npx latchkey ".length).split(/\s+/))

it("the page's commands are there", () => {
  expect(commands.length).toBeGreaterThanOrEqual(10)
})

it.each(commands.map((args) => [args.join(" "), args]))("latchkey %s runs as documented", async (_, args) => {
  const host = app()
  // src/auth.mjs is one of the places the CLI looks, so no --config is needed. The database is a
  // SQLite file in the app's directory, by absolute path: the driver opens paths from the process's directory.
  const code = await runCli(args.map((arg) => (arg === '"$DATABASE_URL"' ? `sqlite:${host.dir}/app.db` : arg)), host.io, parseEnvText)
  const text = [...host.out, ...host.err].join("\n")
  expect(text).not.toMatch(/Usage:/)
  if (args[0] === "doctor") expect(text).toMatch(/No problems found\.|problems? found\./)
  else expect(code).toBe(0)
})

it("the sample doctor output is what doctor prints for that setup", async () => {
  const sample = snippetsOf("cli.md").find((snippet) => snippet.lang === "text" && snippet.heading === "doctor")!
  const host = directoryHost()
  hosts.push(host)
  host.write(".env.local", "AUTH_SECRET=Zq3vN8xK1pR7mT2wY6bH9cJ4fL0sD5gA_e-uVkXoPiQ\nAUTH_URL=http://localhost:3000/auth\nAUTH_GITHUB_ID=Iv1.x\nAUTH_GITHUB_SECRET=s\n")
  host.write("src/auth.mjs", `import GitHub from ${GITHUB}\nexport default { providers: [GitHub] }`)
  const { doctorCommand } = await import("../../src/cli/doctor/command.js")
  expect(await doctorCommand(["--url", "http://127.0.0.1:3000"], host.io)).toBe(1)
  expect(host.out.join("\n").replace("src/auth.mjs", "src/auth.ts")).toBe(sample.code.trim())
})
