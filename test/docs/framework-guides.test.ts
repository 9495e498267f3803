// What the Next.js and SvelteKit guides tell a newcomer before any code: the install step is the
// README's (latchkey is not on npm yet, so `npm install latchkey` alone is a 404), and the SvelteKit
// origin setting has its SvelteKit 2 form beside the SvelteKit 3 one. The Next.js guide's files
// typecheck against Next's own types, and every page or layout that reads the request does it
// inside <Suspense>, as `next build` requires under Cache Components (create-next-app's default).
// (Its "Password accounts" blocks are typechecked and run by password-guides.test.ts.)
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { itTypechecks } from "../setup/typechecks.js"
import { snippetsOf, typecheck, type Snippet } from "./support.js"

const read = (path: string) => readFileSync(resolve(import.meta.dirname, "../..", path), "utf8")
const README_INSTALL = /```sh\n(npm install \.\.\/latchkey\/latchkey-[\d.]+\.tgz)\n```/.exec(read("README.md"))?.[1]

/** Setup's first step, on one line. */
function installStep(guide: string): string {
  return /## Setup\n\n1\. ([\s\S]*?)\n2\. /.exec(read(guide))![1]!.replace(/\s+/g, " ")
}

describe("the framework guides' Setup", () => {
  for (const guide of ["docs/frameworks/nextjs.md", "docs/frameworks/sveltekit.md"]) {
    it(`${guide} installs latchkey as the README does`, () => {
      expect(README_INSTALL).toBeDefined()
      const step = installStep(guide)
      expect(step).toContain(`\`${README_INSTALL}\``)
      expect(step).toContain("(../../README.md#install)")
    })
  }

  it("sveltekit.md gives the origin for SvelteKit 2 too, where paths.origin is refused", () => {
    const page = read("docs/frameworks/sveltekit.md").replace(/\s+/g, " ")
    expect(page).toContain("set `paths: { origin }` in the `sveltekit()` plugin options")
    expect(page).toMatch(/SvelteKit 2 .*`ORIGIN` environment variable/)
  })
})

const NEXT_GUIDE = "frameworks/nextjs.md"
/** The file a block names on its first line (`// app/dashboard/page.tsx`), if it names one. */
const fileOf = (block: Snippet) => /^\/\/ ([\w./[\]-]+\.tsx?)\b/.exec(block.code)?.[1]
const NEXT_FILES = snippetsOf(NEXT_GUIDE).filter((block) => (block.lang === "ts" || block.lang === "tsx") && fileOf(block) !== undefined && block.heading !== "Password accounts")

/** Names of the components that read the request, and whether the default export renders each inside <Suspense>. */
function requestReads(code: string): { readers: string[]; defaultReads: boolean; suspended: string[] } {
  const source = ts.createSourceFile("page.tsx", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const reads = (node: ts.Node) => /\bawait (auth|cookies|headers|connection)\(/.test(node.getText(source))
  const components: Array<{ name: string; body: ts.Node; isDefault: boolean }> = []
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.body) {
      const isDefault = statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword) ?? false
      components.push({ name: statement.name?.text ?? "default", body: statement.body, isDefault })
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (declaration.initializer && ts.isIdentifier(declaration.name) && (ts.isArrowFunction(declaration.initializer) || ts.isFunctionExpression(declaration.initializer))) {
          components.push({ name: declaration.name.text, body: declaration.initializer.body, isDefault: false })
        }
      }
    }
  }
  const main = components.find((component) => component.isDefault)
  const suspended: string[] = []
  const visit = (node: ts.Node, inSuspense: boolean): void => {
    const tag = ts.isJsxElement(node) ? node.openingElement.tagName.getText(source) : ts.isJsxSelfClosingElement(node) ? node.tagName.getText(source) : undefined
    if (tag !== undefined && inSuspense) suspended.push(tag)
    ts.forEachChild(node, (child) => visit(child, inSuspense || tag === "Suspense"))
  }
  if (main) visit(main.body, false)
  return { readers: components.filter((component) => !component.isDefault && reads(component.body)).map((component) => component.name), defaultReads: main !== undefined && reads(main.body), suspended }
}

describe("docs/frameworks/nextjs.md's code", () => {
  it("names the files it exercises", () => {
    expect(NEXT_FILES.map(fileOf)).toEqual(
      expect.arrayContaining(["auth.ts", "app/auth/[...latchkey]/route.ts", "app/dashboard/page.tsx", "app/layout.tsx", "app/user-status.tsx", "app/actions.ts", "proxy.ts"]),
    )
  })

  itTypechecks("every file compiles as an app writes it, against Next's and React's types", () => {
    const files = Object.fromEntries(NEXT_FILES.map((block) => [fileOf(block)!, block.code]))
    // app/actions.ts calls the app's own recordSignOut().
    const diagnostics = typecheck({ ...files, "app-globals.d.ts": "declare function recordSignOut(): Promise<void>\n" })
    expect(diagnostics).toEqual([])
  }, 120_000)

  // `next build` with cacheComponents: "uncached or runtime data ... accessed outside of <Suspense>".
  it("every page and layout that reads the request renders that read inside <Suspense>", () => {
    const checked = NEXT_FILES.filter((block) => /(^|\/)(page|layout)\.tsx$/.test(fileOf(block)!) && !/^"use client"/m.test(block.code))
    expect(checked.map(fileOf)).toEqual(expect.arrayContaining(["app/dashboard/page.tsx", "app/layout.tsx"]))
    for (const block of checked) {
      const { readers, defaultReads, suspended } = requestReads(block.code)
      expect(defaultReads, `${fileOf(block)}: its default export awaits the request itself, outside <Suspense>`).toBe(false)
      for (const reader of readers) expect(suspended, `${fileOf(block)}: <${reader}> reads the request outside <Suspense>`).toContain(reader)
    }
  })

  it("the check refuses the page the guide used to show, whose default export awaits auth()", () => {
    const old = 'export default async function Dashboard() {\n  const session = await auth()\n  return <p>{session?.user?.name}</p>\n}'
    expect(requestReads(old).defaultReads).toBe(true)
    const unwrapped = "async function Me() {\n  const session = await auth()\n  return <p />\n}\nexport default function Page() {\n  return <main><Me /></main>\n}"
    expect(requestReads(unwrapped)).toMatchObject({ readers: ["Me"], suspended: [] })
  })
})
