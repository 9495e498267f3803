// The lower bound: the same AES-256-CBC + HMAC-SHA-512 work with keys already imported, no parsing
// beyond a split, no claims checks. node:crypto under the node run, WebCrypto under the worker run.
import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, randomBytes } from "node:crypto"

const worker = process.execArgv.some((arg) => arg.includes("worker"))

function al(aadLength) {
  const bytes = new Uint8Array(8)
  new DataView(bytes.buffer).setUint32(4, aadLength * 8)
  return bytes
}

export async function rawLowerBound(secret, salt, token) {
  const key = new Uint8Array(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, 64))
  const [header, , ivText, ciphertextText, tagText] = token.split(".")
  const plaintext = JSON.stringify({ sub: "8f1e2d3c", name: "Ada Lovelace", email: "ada@example.com", exp: 1 })
  if (!worker) {
    const mac = createSecretKey(key.subarray(0, 32))
    const aes = createSecretKey(key.subarray(32))
    return {
      decode: () => {
        const [h, , i, c, t] = token.split(".")
        const iv = Buffer.from(i, "base64url")
        const ct = Buffer.from(c, "base64url")
        const tag = createHmac("sha512", mac).update(h).update(iv).update(ct).update(al(h.length)).digest().subarray(0, 32)
        if (!tag.equals(Buffer.from(t, "base64url"))) throw new Error("tag")
        const d = createDecipheriv("aes-256-cbc", aes, iv)
        return JSON.parse(Buffer.concat([d.update(ct), d.final()]).toString())
      },
      encode: () => {
        const iv = randomBytes(16)
        const c = createCipheriv("aes-256-cbc", aes, iv)
        const ct = Buffer.concat([c.update(plaintext), c.final()])
        const tag = createHmac("sha512", mac).update(header).update(iv).update(ct).update(al(header.length)).digest().subarray(0, 32)
        return `${header}..${iv.toString("base64url")}.${ct.toString("base64url")}.${tag.toString("base64url")}`
      },
    }
  }
  const subtle = crypto.subtle
  const aes = await subtle.importKey("raw", key.slice(32), "AES-CBC", false, ["encrypt", "decrypt"])
  const mac = await subtle.importKey("raw", key.slice(0, 32), { name: "HMAC", hash: "SHA-512" }, false, ["sign"])
  const headerBytes = new TextEncoder().encode(header)
  const iv = new Uint8Array(Buffer.from(ivText, "base64url"))
  const ciphertext = new Uint8Array(Buffer.from(ciphertextText, "base64url"))
  const macInput = new Uint8Array([...headerBytes, ...iv, ...ciphertext, ...al(header.length)])
  const expectedTag = new Uint8Array(Buffer.from(tagText, "base64url"))
  return {
    decode: async () => {
      const [tag, clear] = await Promise.all([
        subtle.sign("HMAC", mac, macInput),
        subtle.decrypt({ name: "AES-CBC", iv }, aes, ciphertext),
      ])
      const computed = new Uint8Array(tag, 0, 32)
      let diff = 0
      for (let i = 0; i < 32; i++) diff |= computed[i] ^ expectedTag[i]
      if (diff !== 0) throw new Error("tag")
      return JSON.parse(new TextDecoder().decode(clear))
    },
    encode: async () => {
      const freshIv = crypto.getRandomValues(new Uint8Array(16))
      const ct = new Uint8Array(await subtle.encrypt({ name: "AES-CBC", iv: freshIv }, aes, new TextEncoder().encode(plaintext)))
      const input = new Uint8Array([...headerBytes, ...freshIv, ...ct, ...al(header.length)])
      await subtle.sign("HMAC", mac, input)
      return ct
    },
  }
}
