// Issue "Round three", items 12 and 17: an @auth/express app and a next-auth v5 app, moved by
// following docs/migrating-from-authjs.md, type-check against latchkey's BUILT declarations, the
// way a consumer sees them: "latchkey" and its subpaths resolve through package.json `exports` to
// dist/ (a package may import itself by name), with no path mapping to src/. Each app is a set of
// virtual files compiled in a program of its own, since an augmentation changes the whole program.
// The apps keep their Auth.js code as it was; only the lines the guide says to change are changed.
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect } from "vitest"
import { itTypechecks } from "../setup/typechecks.js"

const root = fileURLToPath(new URL("../../", import.meta.url))
const unavailable = existsSync(`${root}dist/dts/index.d.ts`) ? undefined : "no build in dist/ (run npm run build, or npm test, which builds first)"

/**
 * The augmentation file of an Auth.js app (`next-auth.d.ts`, or `types.d.ts` for @auth/express), after the guide's change: the module names became "latchkey". The import of
 * `DefaultSession` was there before, from "next-auth" or "@auth/express"; it also keeps the file a
 * module, which an augmentation needs.
 */
const AUGMENTATION = `
import type { DefaultSession } from "latchkey"

declare module "latchkey" {
  interface Session {
    user: { id: string; role: "admin" | "member" } & DefaultSession["user"]
  }
  interface User {
    role?: "admin" | "member"
  }
  interface JWT {
    role?: "admin" | "member"
  }
}
`

/** The @auth/express app's auth.ts: a custom OIDC provider, magic links and credentials on a Drizzle adapter. */
const EXPRESS_AUTH = `
import { createAuth, CredentialsSignin } from "latchkey"
import type { Adapter } from "latchkey/adapters"
import type { Provider } from "latchkey/providers"
import Credentials from "latchkey/providers/credentials"
import Nodemailer from "latchkey/providers/nodemailer"

declare const adapter: Adapter // DrizzleAdapter(db, { usersTable, accountsTable, ... }), as before

class InvalidLogin extends CredentialsSignin {
  override code = "invalid_login"
}

// A hand-written OIDC provider, typed as Auth.js apps type it: the profile is untyped.
const corp: Provider = {
  id: "corp",
  name: "Corp SSO",
  type: "oidc",
  issuer: "https://sso.corp.example",
  clientId: process.env.CORP_CLIENT_ID,
  clientSecret: process.env.CORP_CLIENT_SECRET,
  profile(profile) {
    return { id: profile.sub, name: profile.name, email: profile.email, role: profile.groups?.includes("admins") ? "admin" : "member" }
  },
}

export const { handler, auth } = createAuth({
  adapter,
  session: { strategy: "jwt" },
  providers: [
    corp,
    Nodemailer({ server: process.env.EMAIL_SERVER, from: "auth@corp.example" }),
    Credentials({
      credentials: { email: {}, password: {} },
      async authorize(credentials) {
        if (credentials.password !== "correct horse") throw new InvalidLogin()
        return { id: "u1", email: String(credentials.email), role: "member" }
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) token.role = user.role
      return token
    },
    session({ session, token }) {
      session.user.id = token.sub!
      session.user.role = token.role ?? "member"
      return session
    },
  },
})
`

/** The Drizzle schema's accounts table, whose \`type\` column was typed with @auth/express's AdapterAccountType. */
const EXPRESS_SCHEMA = `
import { pgTable, primaryKey, text } from "drizzle-orm/pg-core"
import type { AdapterAccountType } from "latchkey/adapters"

export const accounts = pgTable(
  "account",
  {
    userId: text("userId").notNull(),
    type: text("type").$type<AdapterAccountType>().notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("providerAccountId").notNull(),
  },
  (account) => [primaryKey({ columns: [account.provider, account.providerAccountId] })],
)
`

/** The Express server: the routes read the session as they did with @auth/express's getSession. */
const EXPRESS_SERVER = `
import express from "express"
import { LastSignInMethodError } from "latchkey"
import { toWebHandler, toWebRequest } from "latchkey/node"
import { auth, handler } from "./auth.js"

/** The unlink route's refusal, documented as imported from "latchkey". */
export const isLastSignInMethod = (error: unknown) => error instanceof LastSignInMethodError && error.code === "ERR_LAST_SIGN_IN_METHOD"

const app = express()
app.use("/auth", toWebHandler(handler))

app.get("/me", async (req, res) => {
  const session = await auth(toWebRequest(req))
  if (!session) {
    res.status(401).end()
    return
  }
  const id: string = session.user.id
  const role: "admin" | "member" = session.user.role
  res.json({ id, role, name: session.user.name, email: session.user.email, expires: session.expires })
})

app.get("/admin", async (req, res) => {
  const session = await auth(toWebRequest(req))
  if (session?.user.role !== "admin") {
    res.status(403).end()
    return
  }
  res.send(\`hello \${session.user.name ?? session.user.email}\`)
})
`

/** The Next app's auth.ts, after the guide: Latchkey from latchkey/next, basePath kept at /api/auth. */
const NEXT_AUTH = `
import { Latchkey } from "latchkey/next"
import type { Adapter } from "latchkey/adapters"
import GitHub from "latchkey/providers/github"

declare const adapter: Adapter // PrismaAdapter(prisma), as before

export const { handlers, auth, signIn, signOut } = Latchkey({
  adapter,
  basePath: "/api/auth",
  session: { strategy: "database" },
  providers: [GitHub],
  callbacks: {
    session({ session, user }) {
      session.user.id = user!.id
      session.user.role = (user as { role?: "admin" | "member" } | undefined)?.role ?? "member"
      return session
    },
  },
})
`

/** A server component and a client component of the Next app, as they were under next-auth. */
const NEXT_PAGES = `
import { createElement } from "react"
import { useSession } from "latchkey/react"
import { auth } from "./auth"

export default async function Page() {
  const session = await auth()
  if (!session) return null
  return createElement("p", null, \`\${session.user.name} (\${session.user.role}) \${session.user.id}\`)
}

export function Greeting() {
  const { data: session, status } = useSession()
  if (status !== "authenticated") return null
  return createElement("span", null, session?.user.name, session?.user.role)
}
`

type Files = Record<string, string>

/** The app's own diagnostics, as "file: message" (an app type-checks latchkey's declarations, not its sources). */
function typeCheck(folder: string, files: Files, options: ts.CompilerOptions): string[] {
  const paths = Object.fromEntries(Object.entries(files).map(([name, text]) => [`${root}test/types/${folder}/${name}`, text]))
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, language, onError, shouldCreate) =>
    fileName in paths ? ts.createSourceFile(fileName, paths[fileName]!, language) : getSourceFile(fileName, language, onError, shouldCreate)
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (fileName) => fileName in paths || fileExists(fileName)
  const folderPath = `${root}test/types/${folder}`
  const directoryExists = host.directoryExists?.bind(host)
  host.directoryExists = (name) => name === folderPath || (directoryExists?.(name) ?? true)
  const readFile = host.readFile.bind(host)
  host.readFile = (fileName) => paths[fileName] ?? readFile(fileName)
  const program = ts.createProgram({ rootNames: Object.keys(paths), options, host })
  return Object.keys(paths).flatMap((path) =>
    ts.getPreEmitDiagnostics(program, program.getSourceFile(path)).map((d) => `${path.slice(path.lastIndexOf("/") + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`),
  )
}

const common: ts.CompilerOptions = { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, types: ["node"], lib: ["lib.es2022.d.ts", "lib.dom.d.ts"] }
/** An Express app compiled as Node ESM. */
const node16: ts.CompilerOptions = { ...common, module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 }
/** A Next app's tsconfig. */
const bundler: ts.CompilerOptions = { ...common, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, jsx: ts.JsxEmit.Preserve }

const express = { "types.d.ts": AUGMENTATION, "auth.ts": EXPRESS_AUTH, "schema.ts": EXPRESS_SCHEMA, "server.ts": EXPRESS_SERVER }
const next = { "next-auth.d.ts": AUGMENTATION, "auth.ts": NEXT_AUTH, "page.ts": NEXT_PAGES }

describe.skipIf(unavailable)("apps moved from Auth.js type-check against the built declarations", () => {
  itTypechecks("the @auth/express app: augmentation, session.user, a hand-written OIDC profile, AdapterAccountType, CredentialsSignin", () => {
    expect(typeCheck("__express_app__", express, node16)).toEqual([])
  }, 120_000)

  itTypechecks("the next-auth v5 app: auth() in a server component and useSession in a client component see the augmented session", () => {
    expect(typeCheck("__next_app__", next, bundler)).toEqual([])
  }, 120_000)

  itTypechecks("the harness sees errors: a field nobody declared, and an augmentation still aimed at next-auth", () => {
    const undeclared = typeCheck("__next_app__", { ...next, "page.ts": `${NEXT_PAGES}\nexport const tenant = async () => (await auth())?.user.tenant\n` }, bundler)
    expect(undeclared).toEqual([expect.stringMatching(/^page\.ts: Property 'tenant' does not exist/)])
    // Left as it was, the augmentation names a package that is gone. With skipLibCheck (Next's
    // default) a .d.ts is not checked, so it is silently ignored; the errors are where its fields are read.
    const stale = typeCheck("__next_app__", { ...next, "next-auth.d.ts": AUGMENTATION.replace('declare module "latchkey"', 'declare module "next-auth"') }, bundler)
    expect(stale).toContainEqual("page.ts: Property 'role' does not exist on type 'User'.")
  }, 120_000)

  itTypechecks("\"latchkey/types\" is an augmentation target too, in a file that imports nothing else from it", () => {
    const viaTypes = AUGMENTATION.replace('declare module "latchkey"', 'declare module "latchkey/types"')
    expect(typeCheck("__express_app__", { ...express, "types.d.ts": viaTypes }, node16)).toEqual([])
  }, 120_000)
})
