// Medium gives a token's expiry as an absolute `expires_at` in milliseconds, not `expires_in`: the
// `expiresAtMilliseconds` quirk reads it at sign-in and at refresh, so a refresh is timed right
// (read as seconds, the token would look valid for another 50 000 years and never be refreshed).
import { describe, expect, it } from "vitest"
import { refreshTokens } from "../../src/oauth/tokens.js"
import { expiresAtOf } from "../../src/oauth/token-expiry.js"
import Medium from "../../src/providers/medium.js"

/** Medium's token endpoint, answering a refresh as its API documentation shows. */
function mediumTokenEndpoint(expiresAtMs: number): typeof fetch {
  return async (input, init) => {
    expect(String(input)).toBe("https://api.medium.com/v1/tokens")
    expect(String(init?.body)).toContain("grant_type=refresh_token")
    return Response.json({ token_type: "Bearer", access_token: "medium-access", refresh_token: "medium-refresh", scope: ["basicProfile"], expires_at: expiresAtMs })
  }
}

describe("expires_at in milliseconds (Medium)", () => {
  it("a refresh through Medium's record reads the expiry in seconds", async () => {
    const expiresAtMs = Date.now() + 60 * 24 * 60 * 60 * 1000
    const tokens = await refreshTokens(Medium({ clientId: "id", clientSecret: "secret" }), "old-refresh", { fetch: mediumTokenEndpoint(expiresAtMs) })
    expect(tokens.expires_at).toBe(Math.floor(expiresAtMs / 1000))
    expect(tokens.scope).toBe("basicProfile")
  })

  it("expires_in wins when a response has it, and a provider without the quirk leaves expires_at as the response sent it", () => {
    const now = Math.floor(Date.now() / 1000)
    expect(expiresAtOf({ quirks: { expiresAtMilliseconds: true } }, { expires_in: 3600, expires_at: 1 })).toBeGreaterThanOrEqual(now + 3600)
    expect(expiresAtOf({ quirks: {} }, { expires_at: 1_900_000_000 })).toBeUndefined()
  })
})
