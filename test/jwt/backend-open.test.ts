// The crypto backend's open() on parts that the parser would have refused: it must stand on its
// own. The node backend decodes IV and tag into scratch buffers; a tag one byte short must not be
// completed by the last byte of the tag the previous token left there.
import { describe, expect, it } from "vitest"
import { backend, codec, PLAIN, SECRET } from "./support.js"

describe(`backend.open (${backend.name})`, () => {
  it("refuses a tag one byte short, right after opening the genuine token", async () => {
    const token = await codec.encode({ token: { sub: "1" }, secret: SECRET, salt: PLAIN })
    const [aad, , iv, ciphertext, tag] = token.split(".") as [string, string, string, string, string]
    const key = await codec.keys.get("authjs", "A256CBC-HS512", SECRET, PLAIN)
    expect(await backend.open(key.prepared, aad, { iv, ciphertext, tag })).toBeInstanceOf(Uint8Array)
    // 42 characters decode to 31 bytes: the genuine tag without its last byte.
    const short = Buffer.from(Buffer.from(tag, "base64url").subarray(0, 31)).toString("base64url")
    expect(await backend.open(key.prepared, aad, { iv, ciphertext, tag: short })).toBeUndefined()
    const shortIv = Buffer.from(Buffer.from(iv, "base64url").subarray(0, 15)).toString("base64url")
    expect(await backend.open(key.prepared, aad, { iv: shortIv, ciphertext, tag })).toBeUndefined()
  })
})
