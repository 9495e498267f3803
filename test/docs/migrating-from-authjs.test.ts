// docs/migrating-from-authjs.md's code, as an app copies it: every ts block is typechecked against
// latchkey's source (the augmentation block in the same program as the code that reads its
// fields), and the Express block runs: its `app` is served on 127.0.0.1, signed-out `/me` is 401,
// a credentials sign-in through its mounted handler makes `/me` answer the user, and a refused
// password keeps the code of the CredentialsSignin subclass the app kept.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import express from "express"
import { afterAll, describe, expect, it } from "vitest"
import * as latchkey from "../../src/index.js"
import * as latchkeyNode from "../../src/integrations/node.js"
import Credentials from "../../src/providers/credentials.js"
import Nodemailer from "../../src/providers/email/nodemailer.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { csrf, postForm } from "../handler/support.js"
import { TestBrowser } from "../servers/browser.js"
import { itTypechecks } from "../setup/typechecks.js"
import { runSnippet, snippet, snippetsOf, typecheck } from "./support.js"

const PAGE = "migrating-from-authjs.md"
const MINIMAL = snippet(PAGE, "ts", `basePath: "/api/auth",         // keeps`)
const GET_TOKEN = snippet(PAGE, "ts", "export async function GET(request: Request)")
const AUGMENTATION = snippet(PAGE, "ts", 'declare module "latchkey"')
const EXPRESS = snippet(PAGE, "ts", "toWebHandler(handler)")
const V4_CLAIMS = snippet(PAGE, "ts", "export async function sessionClaims")
const V4_UPGRADE = snippet(PAGE, "ts", "export async function upgradeV4Session")
const KEPT_IDS = snippet(PAGE, "ts", "the providers whose stored account ids Auth.js wrote")

describe("docs/migrating-from-authjs.md", () => {
  it("has no ts block that this file neither runs nor typechecks", () => {
    const claimed = [MINIMAL, GET_TOKEN, AUGMENTATION, EXPRESS, V4_CLAIMS, V4_UPGRADE, KEPT_IDS].map((block) => block.line)
    // The credentials move's blocks are test/e2e/authjs-credentials-move.test.ts's.
    const blocks = snippetsOf(PAGE).filter((block) => block.lang === "ts" && block.heading !== "Moving credentials users to password accounts")
    expect(blocks.map((block) => block.line).filter((line) => !claimed.includes(line))).toEqual([])
  })

  itTypechecks("every ts block compiles as an app writes it, with the augmentation applied to the Express app's session", () => {
    const readsAugmentedFields = `import type { Session } from "latchkey"\nexport const role = (session: Session): "admin" | "member" => session.user.role\nexport const id = (session: Session): string => session.user.id\n`
    const diagnostics = typecheck({
      "migrating-types.d.ts": AUGMENTATION.code,
      "migrating-uses-types.ts": readsAugmentedFields,
      "migrating-minimal.ts": MINIMAL.code,
      "migrating-get-token.ts": GET_TOKEN.code,
      "migrating-express.ts": EXPRESS.code,
      "migrating-v4-claims.ts": V4_CLAIMS.code,
      "migrating-v4-upgrade.ts": V4_UPGRADE.code,
      "migrating-kept-ids.ts": KEPT_IDS.code,
    })
    expect(diagnostics).toEqual([])
  }, 120_000)
})

describe("docs/migrating-from-authjs.md: the Express block runs", () => {
  let server: Server | undefined
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

  it("serves /auth from the mounted handler and /me from auth(toWebRequest(req))", async () => {
    const env = { AUTH_SECRET: "latchkey-docs-secret-0123456789abcdef", AUTH_TRUST_HOST: "true", EMAIL_SERVER: "smtp://127.0.0.1:2525", CORP_CLIENT_ID: "corp-app", CORP_CLIENT_SECRET: "corp-secret" }
    const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]))
    Object.assign(process.env, env)
    let app: express.Express
    try {
      const modules = {
        express: { default: express },
        latchkey,
        "latchkey/node": latchkeyNode,
        "latchkey/providers/credentials": { default: Credentials },
        "latchkey/providers/nodemailer": { default: Nodemailer },
        "latchkey/providers": {},
      }
      ;({ app } = (await runSnippet(EXPRESS.code, modules, { adapter: memoryAdapter() })) as { app: express.Express })
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    }
    server = createServer(app)
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve))
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const browser = new TestBrowser()
    const me = async () => {
      const { response } = await browser.open(`${origin}/me`)
      return { status: response.status, body: response.status === 200 ? await response.json() : undefined }
    }

    expect(await me()).toEqual({ status: 401, body: undefined })
    const refused = await postForm(browser, "/auth/callback/credentials", { csrfToken: await csrf(browser, origin), email: "ada@example.com", password: "wrong" }, origin)
    expect(refused.url.searchParams.get("code")).toBe("invalid_login")
    await postForm(browser, "/auth/callback/credentials", { csrfToken: await csrf(browser, origin), email: "ada@example.com", password: "correct horse" }, origin)
    expect(await me()).toEqual({ status: 200, body: { name: null, email: "ada@example.com" } })
  }, 60_000)
})

describe("docs/migrating-from-authjs.md: the providers that keep Auth.js's account ids", () => {
  it("answer the field Auth.js stored, where latchkey's own records answer another", async () => {
    const [bitbucket, pinterest, trakt] = await Promise.all([import("../../src/providers/bitbucket.js"), import("../../src/providers/pinterest.js"), import("../../src/providers/trakt.js")])
    const { providers } = await runSnippet(KEPT_IDS.code, { "latchkey/providers/bitbucket": bitbucket, "latchkey/providers/pinterest": pinterest, "latchkey/providers/trakt": trakt })
    const samples = [
      { uuid: "{6f1c}", account_id: "5b10a2", display_name: "Ada", links: { avatar: { href: "https://bitbucket.org/a.png" } } },
      { id: "549755885175", username: "ada", business_name: "", profile_image: null },
      { user: { username: "ada", name: "Ada", ids: { slug: "ada", uuid: "b6589fc6" }, images: { avatar: { full: "https://trakt.tv/a.png" } } } },
    ]
    // Resolved as createAuth resolves them, so the app's `profile` is merged over the record's.
    const { resolveProvider } = await import("../../src/providers/core/resolve.js")
    const env = Object.fromEntries(["BITBUCKET", "PINTEREST", "TRAKT"].flatMap((id) => [[`AUTH_${id}_ID`, "id"], [`AUTH_${id}_SECRET`, "secret"]]))
    const ids = async (configured: unknown[]) =>
      Promise.all(configured.map(async (provider, index) => {
        const resolved = resolveProvider(provider as never, { baseUrl: "https://app.example.com", env }) as { profile: (profile: unknown, tokens: unknown) => unknown }
        return ((await resolved.profile(samples[index], {})) as { id: string }).id
      }))
    expect(await ids(providers)).toEqual(["5b10a2", "ada", "ada"])
    // Without the override, latchkey's records answer the ids that never change.
    expect(await ids([bitbucket.default, pinterest.default, trakt.default])).toEqual(["{6f1c}", "549755885175", "b6589fc6"])
  })
})
