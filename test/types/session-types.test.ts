// Types that follow the config: what the `jwt` and `session` callbacks return reaches `auth()`,
// `InferSession`, latchkey/client and latchkey/react with no `declare module`. This file is
// type-checked by `tsc -p tsconfig.json` (strict, in CI's typecheck step), and its first test
// compiles it again with the TypeScript API so that `vitest run` alone also catches a regression.
import { describe, expect, expectTypeOf, it } from "vitest"
import { itTypechecks } from "../setup/typechecks.js"
import { strictDiagnostics } from "./strict.js"
import { createAuthClient } from "../../src/client/client.js"
import { getSession } from "../../src/client/default-client.js"
import type { AuthClient, SessionState } from "../../src/client/types.js"
import { createAuth, type Auth, type AuthConfig } from "../../src/handler/index.js"
import Credentials from "../../src/providers/credentials.js"
import type { SessionProvider, SessionProviderProps, useSession } from "../../src/react/index.js"
import type { InferSession, JWT, Session } from "../../src/types.js"

const SECRET = "latchkey-test-secret-0123456789abcdef"
const providers = [Credentials({ credentials: { username: {} }, authorize: () => ({ id: "u1" }) })]

/** The config a user writes, as the docs show it: jwt first, then session. */
const typed = createAuth({
  providers,
  secret: SECRET,
  env: {},
  callbacks: {
    jwt: ({ token, user }) => ({ ...token, role: (user ? "member" : "admin") as "admin" | "member" }),
    session: async ({ session, token }) => {
      // The jwt callback's return types the token here.
      expectTypeOf(token.role).toEqualTypeOf<"admin" | "member">()
      return { ...session, role: token.role, user: { ...session.user, id: token.sub } }
    },
  },
})
type AppSession = InferSession<typeof typed>

describe("session types follow the config", () => {
  itTypechecks("this file compiles under strict TypeScript", () => {
    expect(strictDiagnostics(import.meta.url)).toEqual([])
  }, 60_000)

  it("auth() returns what the session callback returns", async () => {
    expectTypeOf(typed.auth).returns.toEqualTypeOf<Promise<AppSession | null>>()
    expectTypeOf<AppSession["role"]>().toEqualTypeOf<"admin" | "member">()
    expectTypeOf<AppSession["user"]["id"]>().toEqualTypeOf<string | undefined>()
    expectTypeOf<AppSession["expires"]>().toEqualTypeOf<string>()
    // Both forms name the same type: the createAuth result, or its auth function.
    expectTypeOf<InferSession<typeof typed.auth>>().toEqualTypeOf<AppSession>()
    // What it says at run time: the signed-out request answers null.
    expect(await typed.auth(new Request("http://localhost/"))).toBeNull()
  })

  it("without callbacks, and with a config typed AuthConfig, the session is Session", () => {
    const plain = createAuth({ providers, secret: SECRET, env: {} })
    expectTypeOf(plain).toEqualTypeOf<Auth<Session>>()
    const config: AuthConfig = { providers, secret: SECRET, env: {}, callbacks: { session: ({ session }) => session } }
    expectTypeOf(createAuth(config).auth).returns.toEqualTypeOf<Promise<Session | null>>()
    expectTypeOf<InferSession<typeof plain>>().toEqualTypeOf<Session>()
  })

  it("a session callback must still answer a session", () => {
    createAuth({
      providers,
      secret: SECRET,
      env: {},
      callbacks: {
        // @ts-expect-error: a session has `expires`
        session: () => ({ user: { name: "x" } }),
      },
    })
    // The jwt callback answers claims, or null to end the session.
    const ends = createAuth({ providers, secret: SECRET, env: {}, callbacks: { jwt: () => null } })
    expectTypeOf(ends.auth).returns.toEqualTypeOf<Promise<Session | null>>()
    expectTypeOf<JWT>().toExtend<Record<string, unknown>>()
  })

  it("the browser names the type without importing the config: the client and useSession", () => {
    const client = createAuthClient<AppSession>({ baseUrl: "http://localhost" })
    expectTypeOf(client).toEqualTypeOf<AuthClient<AppSession>>()
    expectTypeOf(client.getSession).returns.toEqualTypeOf<Promise<AppSession | null>>()
    expectTypeOf(client.update).returns.toEqualTypeOf<Promise<AppSession | null>>()
    expectTypeOf(client.getState()).toEqualTypeOf<SessionState<AppSession>>()
    expectTypeOf(client.getState().data).toEqualTypeOf<AppSession | null>()
    expectTypeOf(getSession<AppSession>).returns.toEqualTypeOf<Promise<AppSession | null>>()
    expectTypeOf<ReturnType<typeof useSession<AppSession>>["data"]>().toEqualTypeOf<AppSession | null>()
    expectTypeOf<ReturnType<typeof useSession<AppSession>>["update"]>().returns.toEqualTypeOf<Promise<AppSession | null>>()
    // The initial session is checked against the type too.
    // @ts-expect-error: role must be "admin" or "member"
    createAuthClient<AppSession>({ session: { expires: "", role: "owner", user: {} } })
  })

  it("SessionProvider takes a client or the options for its own, not both", () => {
    const client = createAuthClient<AppSession>()
    expectTypeOf<{ client: typeof client; session: null }>().toExtend<SessionProviderProps<AppSession>>()
    expectTypeOf<{ basePath: "/api/auth"; refetchInterval: 60 }>().toExtend<SessionProviderProps>()
    expectTypeOf<{ client: typeof client; basePath: "/api/auth" }>().not.toExtend<SessionProviderProps<AppSession>>()
    expectTypeOf<typeof SessionProvider<AppSession>>().parameter(0).toEqualTypeOf<SessionProviderProps<AppSession>>()
  })
})
