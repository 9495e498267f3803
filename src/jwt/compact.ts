/**
 * Parsing a compact JWE (RFC 7516 §7.1) into checked parts, before any key is touched. Everything
 * that can be judged without the secret is judged here: size, shape, canonical base64url, the
 * protected header, and the IV, tag and ciphertext lengths the algorithm requires.
 */
import { InvalidTokenError } from "../errors.js"
import { decodeBase64url, decodedLength, hasZeroTailBits, isCanonicalBase64url } from "../lib/base64url.js"
import { AMBIGUOUS, parseStrictJson } from "./strict-json.js"
import type { ContentEncryption, SealedParts } from "./backend/types.js"

/**
 * The largest token `decode` reads, in characters: 64 KiB. Tokens are stored in cookies chunked
 * at about 4 KB each, so this allows 16 chunks, far beyond a real session. Anything larger is
 * rejected before any crypto runs.
 *
 * @example
 * ```ts
 * import { MAX_TOKEN_LENGTH } from "latchkey/jwt"
 * // decode refuses longer tokens with InvalidTokenError, reason "too_large", before any crypto runs
 * if (token.length > MAX_TOKEN_LENGTH) console.warn("oversized session token")
 * ```
 */
export const MAX_TOKEN_LENGTH = 65_536

/** A compact JWE that passed every check that needs no key. */
export interface ParsedJwe extends SealedParts {
  enc: ContentEncryption
  kid: string | undefined
  /** The encoded protected header: the additional authenticated data. */
  aad: string
}

interface ParsedHeader {
  enc: ContentEncryption
  kid: string | undefined
}

/** Byte lengths the algorithms require (RFC 7518 §5.2.5 and §5.3). */
const SHAPE: Record<ContentEncryption, { iv: number; tag: number; block: number }> = {
  "A256CBC-HS512": { iv: 16, tag: 32, block: 16 },
  A256GCM: { iv: 12, tag: 16, block: 1 },
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** The protected header members a session token may have. */
const ALLOWED_HEADER = new Set(["alg", "enc", "kid"])

/** Headers repeat (one per derived key), so their parse is kept. Bounded like every cache here. */
const headerCache = new Map<string, ParsedHeader>()
const MAX_CACHED_HEADERS = 64
/** Ours are about 175 characters; a longer header is checked but never kept. */
const MAX_CACHED_HEADER_LENGTH = 512

function malformed(message: string): InvalidTokenError {
  return new InvalidTokenError("malformed", message)
}

/** The header read last: one app's tokens share a header per key, so most reads stop here. */
let lastHeader: { encoded: string; parsed: ParsedHeader } | undefined

function parseHeader(encoded: string): ParsedHeader {
  if (lastHeader?.encoded === encoded) return lastHeader.parsed
  const cached = headerCache.get(encoded)
  if (cached !== undefined) lastHeader = { encoded, parsed: cached }
  if (cached !== undefined) return cached
  if (encoded.length === 0 || !isCanonicalBase64url(encoded)) throw malformed("The protected header is not canonical base64url.")
  let header: unknown
  try {
    header = parseStrictJson(utf8.decode(decodeBase64url(encoded)))
  } catch (error) {
    throw error instanceof InvalidTokenError ? error : malformed("The protected header is not JSON.")
  }
  if (header === AMBIGUOUS) throw malformed("The protected header has duplicate or __proto__ keys.")
  const parsed = checkHeader(header)
  if (encoded.length > MAX_CACHED_HEADER_LENGTH) return parsed
  if (headerCache.size >= MAX_CACHED_HEADERS) headerCache.delete(headerCache.keys().next().value!)
  headerCache.set(encoded, parsed)
  return parsed
}

function checkHeader(header: unknown): ParsedHeader {
  if (typeof header !== "object" || header === null || Array.isArray(header)) throw malformed("The protected header is not a JSON object.")
  const fields = header as Record<string, unknown>
  if (fields.alg !== "dir") throw new InvalidTokenError("unsupported_alg", 'Only the "dir" key management algorithm is accepted.')
  if (fields.enc !== "A256CBC-HS512" && fields.enc !== "A256GCM") {
    throw new InvalidTokenError("unsupported_enc", 'Only the "A256CBC-HS512" and "A256GCM" content encryption algorithms are accepted.')
  }
  if ("zip" in fields) throw new InvalidTokenError("unsupported_zip", 'The "zip" header parameter is not accepted.')
  // No extension is understood, so any critical one must be refused (RFC 7516 §4.1.13).
  if ("crit" in fields) throw new InvalidTokenError("unsupported_crit", 'The "crit" header parameter is not accepted.')
  if (fields.kid !== undefined && typeof fields.kid !== "string") throw malformed('The "kid" header parameter is not a string.')
  // Session tokens carry exactly these; anything else (p2c, epk, jku, …) was not written by latchkey
  // or Auth.js, so it is refused rather than ignored.
  for (const name of Object.keys(fields)) {
    if (!ALLOWED_HEADER.has(name)) throw new InvalidTokenError("unexpected_header", `The "${name.slice(0, 32)}" header parameter is not accepted.`)
  }
  return { enc: fields.enc, kid: fields.kid as string | undefined }
}

function checkSegment(segment: string, name: string): void {
  if (!isCanonicalBase64url(segment)) throw malformed(`The ${name} is not canonical base64url.`)
}

/**
 * After the header: the empty key part and three base64url segments, all of the rest. Sticky, so
 * one scan from the header's end checks the shape and the alphabet of every segment at once. It
 * captures nothing: the segments are cut out at their dots, which costs less than captures do.
 */
const SEGMENTS = /\.\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/y

/** Whether a segment of canonical characters has a possible length and zero unused tail bits. */
function hasCanonicalTail(segment: string): boolean {
  const tail = segment.length % 4
  // The alphabet is already checked, so only the last character's unused bits are left to see.
  return tail !== 1 && hasZeroTailBits(segment)
}

/** Splits and checks a compact JWE. Throws {@link index!InvalidTokenError} for anything off. */
export function parseCompactJwe(token: string): ParsedJwe {
  if (token.length > MAX_TOKEN_LENGTH) throw new InvalidTokenError("too_large", `The token is longer than ${MAX_TOKEN_LENGTH} characters.`)
  // The common case in one pass: a well-formed token. Anything else takes the part-by-part
  // path below, which names what is wrong.
  const headerEnd = token.indexOf(".")
  SEGMENTS.lastIndex = headerEnd
  if (headerEnd > 0 && SEGMENTS.test(token)) {
    const aad = token.slice(0, headerEnd)
    const { enc, kid } = parseHeader(aad)
    // The segments hold no dot, so the next two dots after the empty key part end the first two.
    const ivEnd = token.indexOf(".", headerEnd + 2)
    const ciphertextEnd = token.indexOf(".", ivEnd + 1)
    const iv = token.slice(headerEnd + 2, ivEnd)
    const ciphertext = token.slice(ivEnd + 1, ciphertextEnd)
    const tag = token.slice(ciphertextEnd + 1)
    if (hasCanonicalTail(iv) && hasCanonicalTail(ciphertext) && hasCanonicalTail(tag)) {
      const shape = SHAPE[enc]
      const ciphertextLength = decodedLength(ciphertext.length)
      if (decodedLength(iv.length) === shape.iv && decodedLength(tag.length) === shape.tag && ciphertextLength !== 0 && ciphertextLength % shape.block === 0) {
        return { enc, kid, aad, iv, ciphertext, tag }
      }
    }
  }
  return parseParts(token)
}

/** The part-by-part parse: every token the one-pass check does not accept, and the tests' reference. */
export function parseParts(token: string): ParsedJwe {
  const parts = token.split(".")
  if (parts.length !== 5) throw malformed("A compact JWE has five dot-separated parts.")
  const [aad, encryptedKey, iv, ciphertext, tag] = parts as [string, string, string, string, string]
  const { enc, kid } = parseHeader(aad)
  if (encryptedKey !== "") throw malformed('With "dir", the encrypted key part must be empty.')
  checkSegment(iv, "initialization vector")
  checkSegment(ciphertext, "ciphertext")
  checkSegment(tag, "authentication tag")
  const shape = SHAPE[enc]
  if (decodedLength(iv.length) !== shape.iv) throw malformed("The initialization vector has the wrong length.")
  if (decodedLength(tag.length) !== shape.tag) throw malformed("The authentication tag has the wrong length.")
  const ciphertextLength = decodedLength(ciphertext.length)
  if (ciphertextLength === 0 || ciphertextLength % shape.block !== 0) throw malformed("The ciphertext has an impossible length.")
  return { enc, kid, aad, iv, ciphertext, tag }
}
