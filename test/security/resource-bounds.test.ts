// Caches stay bounded whatever the input: thousands of getToken calls with random secrets and
// salts leave the derived-key cache at its bound (the soak script checks heap over a million).
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { codec } from "../../src/jwt/runtime.js"
import { MAX_CACHED_KEYS } from "../../src/jwt/keys.js"
import { getToken } from "../../src/jwt/get-token.js"
import { encode } from "../../src/jwt/encode.js"

describe("resource bounds", () => {
  it("keeps the derived-key cache bounded across random secrets and salts", async () => {
    const token = await encode({ token: { sub: "1" }, secret: "a-secret-that-is-not-in-the-list-0123", salt: "s" })
    const inputs = fc.sample(fc.tuple(fc.string({ minLength: 1, maxLength: 24 }), fc.string({ minLength: 1, maxLength: 24 })), 3_000)
    expect(inputs).toHaveLength(3_000)
    for (const [secret, salt] of inputs) {
      expect(await getToken({ req: new Headers({ cookie: `authjs.session-token=${token}` }), secret, salt })).toBeNull()
    }
    expect(codec.keys.size).toBeLessThanOrEqual(MAX_CACHED_KEYS)
    console.log(`resource bounds: ${inputs.length} random secret/salt pairs, derived-key cache holds ${codec.keys.size} (bound ${MAX_CACHED_KEYS})`)
  })
})
