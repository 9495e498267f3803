// docs/provider-tokens.md's code, as an app copies it: the set-up block and the routes that call
// `getAccessToken` compile together (so the set-up must hand out a typed `getAccessToken`), and
// the refresh options, the Redis block and the federated sign-out block compile in the shape the
// page gives them. A set-up without `refresh` must not compile with the routes: `getAccessToken`
// is not there to call.
import { describe, expect } from "vitest"
import { itTypechecks } from "../setup/typechecks.js"
import { snippet, typecheck } from "./support.js"

const PAGE = "provider-tokens.md"
const SETUP = snippet(PAGE, "ts", "providerTokens: providerTokens({ refresh: true }),\n})")
const ROUTE = snippet(PAGE, "ts", 'if (!token) return new Response("Connect your Google account first"')
const JSON_ROUTE = snippet(PAGE, "ts", "Response.json({ accessToken:")
const OPTIONS = snippet(PAGE, "ts", "skew: 120,")
const REDIS = snippet(PAGE, "ts", 'import Redis from "ioredis"')
const FEDERATED = snippet(PAGE, "ts", "revokeTokens: true,")

/** The page's fragments that name `providers` and `redisRefreshStore` without declaring them, as the page's prose does. */
const FREE_NAMES = `import type { AppProviders } from "latchkey/providers"\nimport { redisRefreshStore } from "latchkey/redis"\nimport type Redis from "ioredis"\ndeclare const providers: AppProviders\ndeclare const redis: Redis\n`

describe("docs/provider-tokens.md", () => {
  itTypechecks("every ts block an app copies compiles, and getAccessToken is there only when the plug-in refreshes", () => {
    const withRoutes = (setup: string) => `${setup}\n${ROUTE.code.replace("export async function GET", "export async function calendar")}\n${JSON_ROUTE.code}\n`
    const options = `import { createAuth } from "latchkey"\nimport { providerTokens } from "latchkey/provider-tokens"\n${FREE_NAMES}export const { getAccessToken } = createAuth({\n  providers,\n${OPTIONS.code}\n})\n`
    const federated = `import { createAuth } from "latchkey"\nimport { providerTokens } from "latchkey/provider-tokens"\n${FREE_NAMES}export const auth = ${FEDERATED.code}\n`
    const redis = `import type { AppProviders } from "latchkey/providers"\ndeclare const providers: AppProviders\n${REDIS.code}\n`
    expect(typecheck({ "tokens-setup.ts": withRoutes(SETUP.code), "tokens-options.ts": options, "tokens-federated.ts": federated, "tokens-redis.ts": redis })).toEqual([])
    // The same routes over a plug-in that only signs out at the provider: getAccessToken is not there.
    const signOutOnly = SETUP.code.replace("providerTokens({ refresh: true })", "providerTokens({ signOut: { federated: true } })")
    expect(signOutOnly).not.toBe(SETUP.code)
    const refused = typecheck({ "tokens-sign-out-only.ts": withRoutes(signOutOnly) })
    expect(refused.length).toBeGreaterThan(0)
    expect(refused.every((line) => line.includes("getAccessToken"))).toBe(true)
  }, 120_000)
})
