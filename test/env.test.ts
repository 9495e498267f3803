// A Cloudflare Worker's `Env` is passed as `env` as it is: its string members are variables, and its
// bindings (KV, D1, R2: objects) are ignored even when named like a variable.
import { describe, expect, expectTypeOf, it } from "vitest"
import { readEnv, secretsFromEnv, type EnvRecord } from "../src/env.js"
import { createAuth, type AuthConfig } from "../src/handler/index.js"
import { resolveProviders } from "../src/providers/core/resolve.js"
import Credentials from "../src/providers/credentials.js"
import GitHub from "../src/providers/github.js"

/** The parts of Cloudflare's `KVNamespace` a Worker would use, declared here to avoid the dependency. */
interface KVNamespaceLike {
  get(key: string): Promise<string | null>
  put(key: string, value: string): Promise<void>
}

/** What `wrangler types` generates for a Worker with a secret, a KV namespace, a D1 database and an R2 bucket. */
interface Env {
  AUTH_SECRET: string
  AUTH_GITHUB_ID: string
  KV: KVNamespaceLike
  DB: { prepare(query: string): unknown }
  BUCKET: { head(key: string): Promise<unknown> }
}

const kv: KVNamespaceLike = { get: async () => null, put: async () => undefined }

function workerEnv(): Env {
  return { AUTH_SECRET: "latchkey-test-secret-0123456789abcdef", AUTH_GITHUB_ID: "gh-client", KV: kv, DB: { prepare: () => ({}) }, BUCKET: { head: async () => null } }
}

describe("env takes a Worker's Env", () => {
  it("type-checks an Env interface with bindings, without a cast or a spread", () => {
    const env = workerEnv()
    expectTypeOf(env).toExtend<EnvRecord>()
    expectTypeOf(env).toExtend<NonNullable<AuthConfig["env"]>>()
    const { handler } = createAuth({ providers: [Credentials({ credentials: {}, authorize: () => null })], env, trustHost: true })
    expect(handler).toBeTypeOf("function")
  })

  it("reads the string members of the Env", async () => {
    const env = workerEnv()
    expect(secretsFromEnv(env)).toEqual([env.AUTH_SECRET])
    const [github] = resolveProviders([GitHub], { baseUrl: "https://app.example.com", env })
    expect(github).toMatchObject({ id: "github", clientId: "gh-client" })
  })

  it("ignores a binding named like a variable", () => {
    const env = { AUTH_SECRET: kv, AUTH_SECRET_1: "older-secret-0123456789abcdef-xyz", AUTH_TRUST_HOST: true, AUTH_URL: 443 }
    expect(readEnv("AUTH_SECRET", env)).toBeUndefined()
    expect(readEnv("AUTH_TRUST_HOST", env)).toBeUndefined()
    expect(readEnv("AUTH_URL", env)).toBeUndefined()
    expect(secretsFromEnv(env)).toEqual(["older-secret-0123456789abcdef-xyz"])
  })

  it("ignores members inherited from the prototype, and empty strings", () => {
    const inherited = Object.create({ AUTH_SECRET: "from-the-prototype" }) as object
    expect(readEnv("AUTH_SECRET", inherited)).toBeUndefined()
    expect(readEnv("toString", {})).toBeUndefined()
    expect(readEnv("AUTH_SECRET", { AUTH_SECRET: "" })).toBeUndefined()
  })
})
