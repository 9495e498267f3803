// An Auth.js adapter, typed by the real `@auth/core/adapters`, is passed to createAuth as it is.
// This file is type-checked by `tsc -p tsconfig.json` (strict), and the first test compiles it
// again with the TypeScript API so that `vitest run` alone also catches a regression.
import type { Adapter as AuthJsAdapter, AdapterAccount as AuthJsAccount, AdapterAuthenticator as AuthJsAuthenticator, AdapterSession as AuthJsSession, AdapterUser as AuthJsUser, VerificationToken as AuthJsToken } from "@auth/core/adapters"
import { describe, expect, expectTypeOf, it } from "vitest"
import { itTypechecks } from "../setup/typechecks.js"
import { strictDiagnostics } from "./strict.js"
import { MissingAdapterMethodError } from "../../src/errors.js"
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { withAdapterMethods, type Adapter } from "../../src/adapters/adapter.js"
import { EMAIL_METHODS, requireAdapterMethods } from "../../src/adapters/requirements.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { resolveSignIn } from "../../src/oauth/resolve-sign-in.js"
import Credentials from "../../src/providers/credentials.js"

const SECRET = "latchkey-test-secret-0123456789abcdef"
const credentials = () => Credentials({ credentials: { username: {} }, authorize: () => ({ id: "u1" }) })

/** The rows a Prisma client hands back; the adapter below maps them the way @auth/prisma-adapter does. */
interface PrismaLike {
  user: {
    create(args: { data: Omit<AuthJsUser, "id"> }): Promise<AuthJsUser>
    findUnique(args: { where: { id: string } | { email: string } }): Promise<AuthJsUser | null>
    update(args: { where: { id: string }; data: Partial<AuthJsUser> }): Promise<AuthJsUser>
    delete(args: { where: { id: string } }): Promise<AuthJsUser>
  }
  account: {
    findUnique(args: { where: { provider_providerAccountId: { provider: string; providerAccountId: string } }; include?: { user: true } }): Promise<(AuthJsAccount & { user: AuthJsUser }) | null>
    create(args: { data: AuthJsAccount }): Promise<AuthJsAccount>
    delete(args: { where: { provider_providerAccountId: { provider: string; providerAccountId: string } } }): Promise<AuthJsAccount>
  }
  session: {
    create(args: { data: AuthJsSession }): Promise<AuthJsSession>
    findUnique(args: { where: { sessionToken: string }; include: { user: true } }): Promise<(AuthJsSession & { user: AuthJsUser }) | null>
    update(args: { where: { sessionToken: string }; data: Partial<AuthJsSession> }): Promise<AuthJsSession>
    delete(args: { where: { sessionToken: string } }): Promise<AuthJsSession>
  }
  verificationToken: {
    create(args: { data: AuthJsToken }): Promise<AuthJsToken>
    delete(args: { where: { identifier_token: { identifier: string; token: string } } }): Promise<AuthJsToken>
  }
  authenticator: {
    create(args: { data: AuthJsAuthenticator }): Promise<AuthJsAuthenticator>
    findUnique(args: { where: { credentialID: string } }): Promise<AuthJsAuthenticator | null>
    findMany(args: { where: { userId: string } }): Promise<AuthJsAuthenticator[]>
    update(args: { where: { credentialID: string }; data: { counter: number } }): Promise<AuthJsAuthenticator>
  }
}

/** The shape of `PrismaAdapter(prisma)` from @auth/prisma-adapter: every method, each typed by @auth/core. */
function PrismaAdapter(p: PrismaLike): AuthJsAdapter {
  return {
    createUser: ({ id: _id, ...data }) => p.user.create({ data }),
    getUser: (id) => p.user.findUnique({ where: { id } }),
    getUserByEmail: (email) => p.user.findUnique({ where: { email } }),
    async getUserByAccount(provider_providerAccountId) {
      const account = await p.account.findUnique({ where: { provider_providerAccountId }, include: { user: true } })
      return account?.user ?? null
    },
    updateUser: ({ id, ...data }) => p.user.update({ where: { id }, data }),
    deleteUser: (id) => p.user.delete({ where: { id } }),
    linkAccount: (data) => p.account.create({ data }) as unknown as AuthJsAccount,
    unlinkAccount: (provider_providerAccountId) => p.account.delete({ where: { provider_providerAccountId } }) as unknown as AuthJsAccount,
    async getSessionAndUser(sessionToken) {
      const found = await p.session.findUnique({ where: { sessionToken }, include: { user: true } })
      if (!found) return null
      const { user, ...session } = found
      return { user, session }
    },
    createSession: (data) => p.session.create({ data }),
    updateSession: (data) => p.session.update({ where: { sessionToken: data.sessionToken }, data }),
    deleteSession: (sessionToken) => p.session.delete({ where: { sessionToken } }),
    createVerificationToken: (data) => p.verificationToken.create({ data }),
    async useVerificationToken(identifier_token) {
      return p.verificationToken.delete({ where: { identifier_token } }).catch(() => null)
    },
    async getAccount(providerAccountId, provider) {
      return p.account.findUnique({ where: { provider_providerAccountId: { provider, providerAccountId } } })
    },
    createAuthenticator: (data) => p.authenticator.create({ data }),
    getAuthenticator: (credentialID) => p.authenticator.findUnique({ where: { credentialID } }),
    listAuthenticatorsByUserId: (userId) => p.authenticator.findMany({ where: { userId } }),
    updateAuthenticatorCounter: (credentialID, counter) => p.authenticator.update({ where: { credentialID }, data: { counter } }),
  }
}

describe("an Auth.js adapter type-checks as it is", () => {
  itTypechecks("this file compiles under strict TypeScript", () => {
    expect(strictDiagnostics(import.meta.url)).toEqual([])
  }, 60_000)

  it("accepts an Auth.js adapter with no methods at all", () => {
    const minimal: AuthJsAdapter = {}
    expectTypeOf(minimal).toExtend<Adapter>()
    // JWT sessions need no adapter method; database sessions (the default with an adapter) need the session ones.
    expect(createAuth({ providers: [credentials()], secret: SECRET, env: {}, adapter: minimal, session: { strategy: "jwt" } }).handler).toBeTypeOf("function")
    expect(() => createAuth({ providers: [credentials()], secret: SECRET, env: {}, adapter: minimal })).toThrow(expect.objectContaining({ code: "ERR_ADAPTER_METHOD", methods: ["createSession", "getSessionAndUser", "updateSession", "deleteSession"] }))
  })

  it("accepts an Auth.js adapter with only the linking methods", () => {
    const linking: AuthJsAdapter = {
      createUser: (user) => user,
      getUser: () => null,
      getUserByEmail: () => null,
      getUserByAccount: async () => null,
      linkAccount: () => undefined,
    }
    const config: AuthConfig = { providers: [credentials()], secret: SECRET, env: {}, adapter: linking }
    expect(config.adapter).toBe(linking)
  })

  it("accepts the fully typed shape of PrismaAdapter(prisma)", () => {
    const adapter = PrismaAdapter({} as PrismaLike)
    expectTypeOf(adapter).toExtend<NonNullable<AuthConfig["adapter"]>>()
    expect(createAuth({ providers: [credentials()], secret: SECRET, env: {}, adapter }).auth).toBeTypeOf("function")
    expect(Object.keys(adapter)).toHaveLength(19)
  })

  it("types memoryAdapter() as the full adapter: every method present (Auth.js's 19 and latchkey's 7 extensions)", () => {
    const adapter = memoryAdapter()
    expectTypeOf(adapter.createUser).toBeFunction()
    expectTypeOf(adapter.updateAuthenticatorCounter).toBeFunction()
    expectTypeOf(adapter).toExtend<Required<Adapter>>()
    const extensions = ["deleteSessionsByUserId", "listAccountsByUserId", "updateAccount", "renameAuthenticator", "deleteAuthenticator", "getUserPassword", "setUserPassword"]
    const methods = Object.keys(adapter).filter((key) => typeof Reflect.get(adapter, key) === "function")
    expect(methods.filter((key) => !extensions.includes(key))).toHaveLength(19)
    expect(extensions.filter((key) => !methods.includes(key))).toEqual([])
  })

  it("still refuses what is not an adapter", () => {
    // @ts-expect-error getUser answers a number, not a user
    const wrong: Adapter = { getUser: () => 42 }
    expect(wrong).toBeDefined()
  })
})

describe("missing adapter methods fail loudly, by name", () => {
  it("resolveSignIn names the linking methods the adapter lacks, before writing anything", async () => {
    const created: string[] = []
    const partial: AuthJsAdapter = { getUserByAccount: () => null, createUser: (user) => (created.push(user.email), user) }
    const attempt = resolveSignIn(partial, { user: { id: "gh-1", email: "ada@example.com" }, account: { provider: "github", providerAccountId: "gh-1", type: "oauth" }, provider: { id: "github" } })
    await expect(attempt).rejects.toBeInstanceOf(MissingAdapterMethodError)
    await expect(attempt).rejects.toMatchObject({ code: "ERR_ADAPTER_METHOD", methods: ["getUser", "getUserByEmail", "linkAccount"] })
    await expect(attempt).rejects.toThrow(/provider "github".*getUser, getUserByEmail, linkAccount/)
    expect(created).toEqual([])
  })

  it("requireAdapterMethods names what an email provider needs", () => {
    const check = () => requireAdapterMethods({ getUserByEmail: () => null }, [{ id: "resend", type: "email" }])
    expect(check).toThrow(MissingAdapterMethodError)
    expect(check).toThrow(expect.objectContaining({ methods: EMAIL_METHODS.filter((method) => method !== "getUserByEmail") }))
  })

  it("an email provider asks only for what Auth.js asks for: the token methods and getUserByEmail", () => {
    const authjsEmailAdapter = { createVerificationToken: () => null, useVerificationToken: () => null, getUserByEmail: () => null }
    expect(() => requireAdapterMethods(authjsEmailAdapter, [{ id: "resend", type: "email" }])).not.toThrow()
  })

  it("requireAdapterMethods refuses an email provider without an adapter", () => {
    expect(() => requireAdapterMethods(undefined, [{ id: "resend", type: "email" }])).toThrow(/provider "resend" \(email sign-in\) needs an adapter/)
  })

  it("requireAdapterMethods checks OAuth linking only when an adapter is configured", () => {
    expect(() => requireAdapterMethods(undefined, [{ id: "github", type: "oauth" }, { id: "password", type: "credentials" }])).not.toThrow()
    expect(() => requireAdapterMethods({}, [{ id: "password", type: "credentials" }])).not.toThrow()
    expect(() => requireAdapterMethods({ getUser: () => null }, [{ id: "google", type: "oidc" }])).toThrow(
      expect.objectContaining({ code: "ERR_ADAPTER_METHOD", methods: ["getUserByAccount", "getUserByEmail", "createUser", "linkAccount"] }),
    )
  })

  it("requireAdapterMethods passes the memory adapter for every kind of provider", () => {
    const kinds = ["oauth", "oidc", "email", "credentials", "webauthn"]
    expect(kinds.length).toBeGreaterThan(0)
    for (const type of kinds) expect(() => requireAdapterMethods(memoryAdapter(), [{ id: type, type }])).not.toThrow()
  })

  it("treats a member that is not a function as missing", () => {
    const broken = { createVerificationToken: "yes" } as unknown as Adapter
    expect(() => withAdapterMethods(broken, ["createVerificationToken"], "email sign-in")).toThrow(expect.objectContaining({ methods: ["createVerificationToken"] }))
  })
})
