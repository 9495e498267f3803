// Review 7 (passkeys): a software authenticator that answers the handler's real options, so the
// flows run end to end (GET webauthn-options, then POST callback) with any challenge, origin,
// counter, flags or credential id a test chooses. Attestation "none", ES256 keys, node:crypto.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto"
import { isoCBOR } from "@simplewebauthn/server/helpers"
import { TestBrowser } from "../servers/browser.js"
import { csrfOf, ORIGIN } from "../webauthn/support.js"

const b64u = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url")
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest()

const UP = 0x01
const UV = 0x04
const AT = 0x40

export interface CeremonyOptions {
  origin?: string
  rpId?: string
  flags?: number
  counter?: number
  type?: string
}

export class SoftAuthenticator {
  readonly credentialId: Buffer
  private readonly privateKey: KeyObject
  private readonly publicKey: KeyObject
  counter = 0

  constructor(credentialId: Buffer = randomBytes(32)) {
    this.credentialId = credentialId
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" })
    this.privateKey = pair.privateKey
    this.publicKey = pair.publicKey
  }

  get id(): string {
    return b64u(this.credentialId)
  }

  /** The credential id as Auth.js stores it (standard base64). */
  get storedId(): string {
    return this.credentialId.toString("base64")
  }

  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: "jwk" }) as { x: string; y: string }
    const map = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x, "base64url"))],
      [-3, new Uint8Array(Buffer.from(jwk.y, "base64url"))],
    ])
    return isoCBOR.encode(map as never)
  }

  private authData(rpId: string, flags: number, counter: number, attested: boolean): Buffer {
    const counterBytes = Buffer.alloc(4)
    counterBytes.writeUInt32BE(counter)
    const parts: Uint8Array[] = [sha256(rpId), Buffer.from([flags]), counterBytes]
    if (attested) {
      const length = Buffer.alloc(2)
      length.writeUInt16BE(this.credentialId.length)
      parts.push(Buffer.alloc(16), length, this.credentialId, Buffer.from(this.coseKey()))
    }
    return Buffer.concat(parts)
  }

  /** A registration response (navigator.credentials.create) for `challenge`. */
  register(challenge: string, options: CeremonyOptions = {}) {
    const { origin = ORIGIN, rpId = new URL(ORIGIN).hostname, flags = UP | UV | AT, counter = this.counter, type = "webauthn.create" } = options
    const clientDataJSON = Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map()], ["authData", new Uint8Array(this.authData(rpId, flags, counter, true))]]) as never)
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: { clientDataJSON: b64u(clientDataJSON), attestationObject: b64u(attestationObject), transports: ["internal"] },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    }
  }

  /** An assertion (navigator.credentials.get) for `challenge`; the counter moves forward unless given. */
  assert(challenge: string, options: CeremonyOptions & { userHandle?: string } = {}) {
    const counter = options.counter ?? ++this.counter
    const { origin = ORIGIN, rpId = new URL(ORIGIN).hostname, flags = UP | UV, type = "webauthn.get" } = options
    const clientDataJSON = Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
    const authenticatorData = this.authData(rpId, flags, counter, false)
    const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.privateKey)
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: { clientDataJSON: b64u(clientDataJSON), authenticatorData: b64u(authenticatorData), signature: b64u(signature), userHandle: options.userHandle ?? b64u(randomBytes(32)) },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    }
  }
}

/** GETs the options route as the served script does; answers status, body and the challenge it holds. */
export async function options(browser: TestBrowser, query: string, provider = "passkey") {
  const { response } = await browser.open(`${ORIGIN}/auth/webauthn-options/${provider}?${query}`)
  const body = (await response.json()) as Record<string, any>
  return { status: response.status, body, challenge: body.options?.challenge as string | undefined, response }
}

/** POSTs a passkey callback with any content type and raw body. */
export async function rawPost(browser: TestBrowser, path: string, body: string, contentType = "application/json") {
  const { response } = await browser.open(`${ORIGIN}/auth/${path}`, { method: "POST", headers: { "content-type": contentType }, body })
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  return { status: response.status, body: parsed as any, text }
}

/** POST passkeys (the management API), as an account page sends it. */
export async function managePasskey(browser: TestBrowser, fields: Record<string, string>) {
  const { response } = await browser.open(`${ORIGIN}/auth/passkeys`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: await csrfOf(browser), ...fields }).toString(),
  })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}
