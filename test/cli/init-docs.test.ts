// docs/cli-init.md against the command itself: each `npx latchkey init` line of the page runs, the
// auth.ts the page shows is byte for byte what init writes for its command, and the output it shows
// is what init prints.
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { snippetsOf } from "../docs/support.js"
import { manifest, tempApp } from "./init-support.js"

const snippets = snippetsOf("cli-init.md")
const NEXT_APP = { "package.json": manifest({ next: "16.4.6", react: "19.3.1", "react-dom": "19.3.1" }), "tsconfig.json": "{}", "app/layout.tsx": "", ".gitignore": ".env*\n" }

describe("docs/cli-init.md", () => {
  it("every init command on the page runs in a Next.js app", async () => {
    const commands = snippets.filter((snippet) => snippet.lang === "sh").flatMap((snippet) => snippet.code.split("\n"))
    expect(commands.length).toBeGreaterThan(0)
    for (const command of commands) {
      const [npx, bin, name, ...args] = command.split(" ")
      expect([npx, bin, name]).toEqual(["npx", "latchkey", "init"])
      // On a terminal a bare `init` asks; here the answers are the defaults.
      const app = tempApp(NEXT_APP, ["", ""])
      expect(await app.init(...args), command).toBe(0)
      expect(app.exists("auth.ts")).toBe(true)
    }
  })

  it("shows the auth.ts and the output init makes for --provider github,google", async () => {
    const app = tempApp(NEXT_APP)
    expect(await app.init("--provider", "github,google", "--yes")).toBe(0)
    const shownFile = snippets.find((snippet) => snippet.lang === "ts")!.code
    expect(app.read("auth.ts")).toBe(`${shownFile}\n`)
    const shownOutput = snippets.find((snippet) => snippet.lang === "text")!.code
    expect(app.out.join("\n")).toBe(shownOutput)
  })

  it("names the migrate and install lines init prints for --database postgres", async () => {
    const app = tempApp(NEXT_APP)
    expect(await app.init("--database", "postgres", "--yes")).toBe(0)
    const page = readFileSync(resolve(import.meta.dirname, "../../docs/cli-init.md"), "utf8").replace(/\s+/g, " ")
    const migrate = "`npx latchkey migrate --adapter pg --with database-sessions`"
    expect(page).toContain(`On PostgreSQL that line is ${migrate}`)
    expect(app.out.join("\n")).toContain(migrate)
    expect(page).toContain("ends with `npm install -D @types/pg`")
    expect(app.out.join("\n")).toMatch(/Install: npm install .* && npm install -D @types\/pg\n/)
  })
})
