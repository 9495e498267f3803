// The limit: the same AES-256-CBC + HMAC-SHA-512 work as a session token, written the cheapest way
// known, with the key derived and imported once, no checks beyond the tag, no cache lookups. It
// does what any reader or writer of these tokens cannot skip: base64url both ways, JSON both ways
// (encode serializes the same claims plus iat, exp and a fresh jti on every call), a fresh IV; and
// for getToken, reading the request's Cookie header and slicing the token out of it with indexOf.
// node:crypto under the node run, WebCrypto (no Buffer) under the worker run.
import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, randomFillSync, randomUUID } from "node:crypto"

const worker = process.execArgv.some((arg) => arg.includes("worker"))

function al(aadLength) {
  const bytes = new Uint8Array(8)
  new DataView(bytes.buffer).setUint32(4, aadLength * 8)
  return bytes
}

/** Claims as encode writes them: the caller's, then iat, exp and jti. */
function claimsText(claims) {
  const iat = Math.floor(Date.now() / 1000)
  return `${JSON.stringify(claims).slice(0, -1)},"iat":${iat},"exp":${iat + 2592000},"jti":"${randomUUID()}"}`
}

/** The cheapest unpadded base64url without Buffer: btoa over a binary string. */
function base64url(bytes) {
  let binary = ""
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000))
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

function fromBase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** The value of cookie `name` in a request: the header read, then one indexOf and a slice. */
function cookieValue(request, name) {
  const header = request.headers.get("cookie")
  const start = header.indexOf(`${name}=`) + name.length + 1
  const end = header.indexOf(";", start)
  return header.slice(start, end === -1 ? header.length : end)
}

/**
 * `decode` opens `token` (made with `secret` and `salt`) and parses its claims; `getToken` does the
 * same for the token in `request`'s cookie named `salt`; `encode` seals `claims`. Each answers what
 * the real function answers, so a bench can check them.
 */
export async function rawLowerBound(secret, salt, token, claims) {
  const key = new Uint8Array(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, 64))
  const header = token.slice(0, token.indexOf("."))
  if (!worker) {
    const mac = createSecretKey(key.subarray(0, 32))
    const aes = createSecretKey(key.subarray(32))
    const alBytes = al(header.length)
    // IVs drawn from a pooled randomFillSync, as latchkey's node backend draws them.
    const pool = Buffer.alloc(4096)
    let offset = pool.length
    const open = (jwe) => {
      const [h, , i, c, t] = jwe.split(".")
      const iv = Buffer.from(i, "base64url")
      const tag = createHmac("sha512", mac).update(h, "latin1").update(iv).update(c, "base64url").update(alBytes).digest()
      if (!tag.subarray(0, 32).equals(Buffer.from(t, "base64url"))) throw new Error("tag")
      const d = createDecipheriv("aes-256-cbc", aes, iv)
      return JSON.parse(Buffer.concat([d.update(c, "base64url"), d.final()]).toString())
    }
    return {
      decode: () => open(token),
      getToken: (request) => open(cookieValue(request, salt)),
      encode: () => {
        if (offset + 16 > pool.length) {
          randomFillSync(pool)
          offset = 0
        }
        const iv = pool.subarray(offset, (offset += 16))
        const c = createCipheriv("aes-256-cbc", aes, iv)
        const ct = Buffer.concat([c.update(claimsText(claims), "utf8"), c.final()])
        const tag = createHmac("sha512", mac).update(header, "latin1").update(iv).update(ct).update(alBytes).digest()
        return `${header}..${iv.toString("base64url")}.${ct.toString("base64url")}.${tag.toString("base64url", 0, 32)}`
      },
    }
  }
  const subtle = crypto.subtle
  const aes = await subtle.importKey("raw", key.slice(32), "AES-CBC", false, ["encrypt", "decrypt"])
  const mac = await subtle.importKey("raw", key.slice(0, 32), { name: "HMAC", hash: "SHA-512" }, false, ["sign"])
  const headerBytes = new TextEncoder().encode(header)
  const alBytes = al(header.length)
  const encoder = new TextEncoder()
  const decoder = new TextDecoder()
  const macInput = (iv, ciphertext) => {
    const input = new Uint8Array(headerBytes.length + 16 + ciphertext.length + 8)
    input.set(headerBytes, 0)
    input.set(iv, headerBytes.length)
    input.set(ciphertext, headerBytes.length + 16)
    input.set(alBytes, input.length - 8)
    return input
  }
  const open = async (jwe) => {
    const [, , i, c, t] = jwe.split(".")
    const iv = fromBase64url(i)
    const ciphertext = fromBase64url(c)
    const expected = fromBase64url(t)
    const [tag, clear] = await Promise.all([subtle.sign("HMAC", mac, macInput(iv, ciphertext)), subtle.decrypt({ name: "AES-CBC", iv }, aes, ciphertext)])
    const computed = new Uint8Array(tag, 0, 32)
    let diff = 0
    for (let k = 0; k < 32; k++) diff |= computed[k] ^ expected[k]
    if (diff !== 0) throw new Error("tag")
    return JSON.parse(decoder.decode(clear))
  }
  return {
    decode: () => open(token),
    getToken: (request) => open(cookieValue(request, salt)),
    encode: async () => {
      const iv = crypto.getRandomValues(new Uint8Array(16))
      const ct = new Uint8Array(await subtle.encrypt({ name: "AES-CBC", iv }, aes, encoder.encode(claimsText(claims))))
      const tag = new Uint8Array(await subtle.sign("HMAC", mac, macInput(iv, ct)), 0, 32)
      return `${header}..${base64url(iv)}.${base64url(ct)}.${base64url(tag)}`
    },
  }
}
