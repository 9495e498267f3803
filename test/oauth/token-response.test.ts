import { describe, expect, it } from "vitest"
import { normalizeTokenResponse } from "../../src/oauth/token-response.js"

const json = (body: unknown, status = 200) => Response.json(body, { status })

describe("normalizeTokenResponse", () => {
  it("reads a form-encoded body as JSON, with a numeric expires_in", async () => {
    const form = new Response("access_token=a&token_type=bearer&expires_in=3600", { headers: { "content-type": "application/x-www-form-urlencoded" } })
    expect(await (await normalizeTokenResponse(form)).json()).toEqual({ access_token: "a", token_type: "bearer", expires_in: 3600 })
  })

  it("gives an HTTP 200 error body the 400 status of an error response", async () => {
    const response = await normalizeTokenResponse(json({ error: "bad_verification_code" }))
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: "bad_verification_code" })
  })

  it("joins a scope array and drops a non-string id_token", async () => {
    const response = await normalizeTokenResponse(json({ access_token: "a", token_type: "bearer", scope: ["user:read:email", "openid"], id_token: false }))
    expect(await response.json()).toEqual({ access_token: "a", token_type: "bearer", scope: "user:read:email openid" })
  })

  it("treats an access token without token_type as a Bearer token", async () => {
    const response = await normalizeTokenResponse(json({ access_token: "a", user_id: 1 }))
    expect(await response.json()).toEqual({ access_token: "a", user_id: 1, token_type: "bearer" })
  })

  it("leaves a conforming response untouched", async () => {
    const original = json({ access_token: "a", token_type: "bearer", scope: "x" })
    expect(await normalizeTokenResponse(original)).toBe(original)
  })
})
