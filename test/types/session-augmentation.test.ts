// `declare module` keeps working next to the inferred types: an app that augments `Session` (through
// "latchkey" or "latchkey/types", as the docs and Auth.js apps do) sees its fields in `auth()`, in
// latchkey/client and in latchkey/react. An augmentation changes the whole program it is in, so the
// app is a virtual file compiled in a program of its own, with the package's subpaths mapped to src/.
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect } from "vitest"
import { itTypechecks } from "../setup/typechecks.js"
import { STRICT_OPTIONS } from "./strict.js"

const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url))
const APP_FILE = fileURLToPath(new URL("./__augmented_app__.ts", import.meta.url))

const options: ts.CompilerOptions = {
  ...STRICT_OPTIONS,
  paths: {
    ...STRICT_OPTIONS.paths,
    latchkey: [src("index.ts")],
    "latchkey/types": [src("types.ts")],
    "latchkey/client": [src("client/index.ts")],
    "latchkey/react": [src("react/index.ts")],
  },
}

/** An app written the Auth.js way: the session's fields declared once, by augmentation. */
const APP = `
import { createAuth } from "latchkey"
import { createAuthClient, getSession } from "latchkey/client"
import { useSession } from "latchkey/react"

declare module "latchkey" {
  interface Session {
    role: "admin" | "member"
  }
}
declare module "latchkey/types" {
  interface JWT {
    plan?: "free" | "pro"
  }
}

export const { auth } = createAuth({
  providers: [],
  callbacks: {
    jwt: ({ token }) => ({ ...token, plan: token.plan ?? "free" }),
    session: ({ session, token }) => ({ ...session, role: token.plan === "pro" ? "admin" : "member" }),
  },
})

export async function read(request: Request) {
  const session = await auth(request)
  const role: "admin" | "member" | undefined = session?.role
  const fromClient: "admin" | "member" | undefined = (await getSession())?.role
  const fromOwnClient: "admin" | "member" | undefined = (await createAuthClient().getSession())?.role
  return [role, fromClient, fromOwnClient]
}

export function Role() {
  const { data } = useSession()
  const role: "admin" | "member" | undefined = data?.role
  return role
}
`

/** The diagnostics of a program made of the app file with `source`. */
function compile(source: string, oldProgram?: ts.Program): { messages: string[]; program: ts.Program } {
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, language, onError, shouldCreate) =>
    fileName === APP_FILE ? ts.createSourceFile(fileName, source, language) : getSourceFile(fileName, language, onError, shouldCreate)
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (fileName) => fileName === APP_FILE || fileExists(fileName)
  const program = ts.createProgram({ rootNames: [APP_FILE], options, host, oldProgram })
  // The app's own diagnostics: an app type-checks latchkey's declarations, not its sources (where a
  // required field added by augmentation is, rightly, missing from the objects latchkey builds).
  const messages = ts.getPreEmitDiagnostics(program, program.getSourceFile(APP_FILE)).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
  return { messages, program }
}

describe("declare module keeps working", () => {
  itTypechecks("a Session augmented through \"latchkey\" and a JWT through \"latchkey/types\" type auth(), the client and useSession", () => {
    const { messages, program } = compile(APP)
    expect(messages).toEqual([])
    // The harness sees errors: the same app reading a field nobody declared does not compile.
    const broken = compile(`${APP}\nexport const missing = (s: import("latchkey").Session) => s.tenant\n`, program)
    expect(broken.messages).toEqual([expect.stringContaining("Property 'tenant' does not exist on type 'Session'")])
  }, 120_000)
})
