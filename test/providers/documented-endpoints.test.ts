/// <reference types="vite/client" />
// Endpoints as the providers' own docs state them (issue 13). The catalog snapshot catches a change
// to an endpoint but not a wrong one; here each fixture's `documented` object, copied from the
// official page it cites, is held against the record resolved with the fixture's options, as
// catalog.test.ts resolves it. OpenID Connect providers discover their endpoints, so their
// documented issuer is what is compared. Only a trailing slash is forgiven, and a `{placeholder}`
// the docs write in place of a tenant or domain (`{tenant}`) stands for one path segment; any other
// difference fails, unless it is listed, with its reason, in KNOWN_DIFFERENCES below.
import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { resolveProvider } from "../../src/providers/core/resolve.js"
import type { OAuthConfig, ProviderConfig, ResolvedOAuthProvider } from "../../src/providers/types.js"

/** The endpoints a docs page can state, as the fixture's `documented` names them. */
const ENDPOINTS = ["authorization", "token", "userinfo", "issuer"] as const
type Endpoint = (typeof ENDPOINTS)[number]

/** A fixture's `documented` object: the page it was copied from and the endpoints that page states. */
type Documented = { source: string } & Partial<Record<Endpoint, string>>

/** A disagreement between the docs and a record, kept visible rather than hidden by the test. */
interface KnownDifference {
  /** What the record resolves to today; the test fails when this changes, so the entry is revisited. */
  record: string
  reason: string
}

/**
 * Where a record departs from its provider's documented endpoint, and why. src/ is unchanged by
 * this suite: each entry is a finding to settle in the record (or here) deliberately.
 */
const KNOWN_DIFFERENCES: Record<string, Partial<Record<Endpoint, KnownDifference>>> = {
  discord: {
    authorization: {
      record: "https://discord.com/oauth2/authorize",
      reason:
        "Discord's authorization server metadata (RFC 8414) advertises https://discord.com/api/oauth2/authorize; " +
        "the record uses the browser-facing https://discord.com/oauth2/authorize, which Discord also serves. " +
        "Decide which one the record should carry.",
    },
  },
}

/** The number of fixtures with a `documented` object: raise it as fixtures gain one, never lower it. */
const DOCUMENTED_IDS = [
  "apple",
  "atlassian",
  "azure-ad",
  "discord",
  "gitlab",
  "google",
  "kakao",
  "microsoft-entra-id",
  "notion",
  "reddit",
  "spotify",
  "strava",
  "twitch",
  "twitter",
]

const modules = import.meta.glob<{ default: (options?: unknown) => ProviderConfig }>("../../src/providers/*.ts", { eager: true })
const factoryFor = new Map(
  Object.values(modules)
    .filter((module) => typeof module.default === "function")
    .map((module) => [module.default({ authorize: () => null }).id, module.default] as const),
)

const FIXTURES = new URL("../fixtures/providers/", import.meta.url)
const fixtures = readdirSync(FIXTURES)
  .filter((file) => file.endsWith(".json"))
  .map((file) => ({ id: file.replace(/\.json$/, ""), fixture: JSON.parse(readFileSync(new URL(file, FIXTURES), "utf8")) as unknown }))
  .sort((a, b) => a.id.localeCompare(b.id))

/** The fixture's `documented` object, narrowed; undefined when the fixture has none. */
function documentedOf(id: string, fixture: unknown): Documented | undefined {
  if (typeof fixture !== "object" || fixture === null || !("documented" in fixture)) return undefined
  const documented = fixture.documented
  if (typeof documented !== "object" || documented === null) throw new Error(`${id}: "documented" must be an object`)
  const fields = documented as Record<string, unknown>
  for (const [key, value] of Object.entries(fields)) {
    if (key !== "source" && !(ENDPOINTS as readonly string[]).includes(key)) throw new Error(`${id}: "documented.${key}" is not one of source, ${ENDPOINTS.join(", ")}`)
    if (typeof value !== "string") throw new Error(`${id}: "documented.${key}" must be a string`)
  }
  if (typeof fields.source !== "string") throw new Error(`${id}: "documented.source" must name the docs page`)
  return fields as Documented
}

function optionsOf(fixture: unknown): Record<string, unknown> {
  if (typeof fixture === "object" && fixture !== null && "options" in fixture && typeof fixture.options === "object" && fixture.options !== null) {
    return fixture.options as Record<string, unknown>
  }
  return {}
}

/** The record as a user gets it: the fixture's options (instance URLs, tenants) passed to the factory. */
function resolve(id: string, fixture: unknown): ResolvedOAuthProvider {
  const factory = factoryFor.get(id)
  if (!factory) throw new Error(`${id}: no provider record in src/providers/`)
  const configured = factory({ clientId: "client-id", clientSecret: "client-secret", ...optionsOf(fixture) }) as OAuthConfig
  return resolveProvider(configured, { baseUrl: "https://app.example.com", env: { AUTH_SECRET: "unused" } }) as ResolvedOAuthProvider
}

function resolvedEndpoint(provider: ResolvedOAuthProvider, endpoint: Endpoint): string | undefined {
  return endpoint === "issuer" ? provider.issuer : provider[endpoint].url
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "")

/** Whether the record's URL is the documented one: equal but for a trailing slash, placeholders matching one segment. */
function agrees(documented: string, record: string | undefined): boolean {
  if (record === undefined) return false
  const pattern = withoutTrailingSlash(documented)
    .split(/(\{[^}/]+\})/)
    .map((part) => (/^\{[^}/]+\}$/.test(part) ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("")
  return new RegExp(`^${pattern}$`).test(withoutTrailingSlash(record))
}

const documented = fixtures.flatMap(({ id, fixture }) => {
  const doc = documentedOf(id, fixture)
  return doc ? [{ id, fixture, doc }] : []
})

describe("documented endpoints", () => {
  it(`has a documented object in ${DOCUMENTED_IDS.length} fixtures, and lists the providers still without one`, () => {
    const oauthIds = fixtures.map(({ id }) => id).filter((id) => factoryFor.has(id))
    const without = oauthIds.filter((id) => !documented.some((entry) => entry.id === id))
    console.log(`documented endpoints: ${documented.length} of ${oauthIds.length} fixtures; without one: ${without.join(", ")}`)
    expect(documented.map(({ id }) => id)).toEqual(DOCUMENTED_IDS)
    expect(documented.length).toBeGreaterThanOrEqual(DOCUMENTED_IDS.length)
  })

  it("keeps each known difference attached to a documented endpoint", () => {
    const entries = Object.entries(KNOWN_DIFFERENCES).flatMap(([id, fields]) => Object.keys(fields).map((field) => [id, field] as const))
    expect(entries.length).toBeGreaterThan(0)
    for (const [id, field] of entries) expect(documented.find((entry) => entry.id === id)?.doc[field as Endpoint], `${id}.${field}`).toBeTypeOf("string")
  })

  describe.each(documented.map(({ id, fixture, doc }) => [id, fixture, doc] as const))("%s", (id, fixture, doc) => {
    it("cites an https docs page and states at least one endpoint", () => {
      expect(new URL(doc.source).protocol).toBe("https:")
      expect(ENDPOINTS.filter((endpoint) => doc[endpoint] !== undefined).length).toBeGreaterThan(0)
    })

    it("resolves each documented endpoint to the value the docs state", () => {
      const provider = resolve(id, fixture)
      const stated = ENDPOINTS.flatMap((endpoint) => (doc[endpoint] === undefined ? [] : [[endpoint, doc[endpoint]!] as const]))
      expect(stated.length).toBeGreaterThan(0)
      for (const [endpoint, value] of stated) {
        const record = resolvedEndpoint(provider, endpoint)
        const known = KNOWN_DIFFERENCES[id]?.[endpoint]
        if (known) {
          // A named exception: the record still differs from the docs, in exactly the recorded way.
          expect(record, `${id}.${endpoint}: ${known.reason}`).toBe(known.record)
          expect(agrees(value, record), `${id}.${endpoint} now agrees with ${doc.source}: remove it from KNOWN_DIFFERENCES`).toBe(false)
        } else {
          expect(agrees(value, record), `${id}.${endpoint}: the record resolves to ${record}, ${doc.source} states ${value}`).toBe(true)
        }
      }
    })
  })
})
