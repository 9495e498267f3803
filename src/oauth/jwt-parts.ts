/**
 * Reading a provider's compact JWS before, or beside, its verification: the protected header (to
 * know the algorithm and key it claims) and, for Entra ID's tenant template, a payload claim.
 * oauth4webapi parses both while it validates, but exports neither, and a whole JOSE library for
 * two `JSON.parse` calls would cost the bundle several kilobytes. Nothing read here is trusted:
 * whatever it returns decides only which check runs next, and every path still ends in a signature
 * check or a refusal.
 */
import { decodeBase64url } from "../lib/base64url.js"

/** The parts of a JWS header that choose how a token is verified. */
export interface JwsHeader {
  alg?: unknown
  kid?: unknown
  [parameter: string]: unknown
}

const SEGMENT = /^[A-Za-z0-9_-]*$/

/**
 * One base64url segment of a compact JWS, as a JSON object; `undefined` when it is not one. The
 * segment's unused tail bits are not checked: oauth4webapi's decoder does not check them either,
 * and both must see the same header.
 */
function segmentObject(segment: string | undefined): Record<string, unknown> | undefined {
  if (segment === undefined || segment.length % 4 === 1 || !SEGMENT.test(segment)) return undefined
  try {
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(decodeBase64url(segment)))
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** The protected header of the compact JWS `jwt`, unverified; `undefined` when it has none. */
export function jwsHeader(jwt: string): JwsHeader | undefined {
  const parts = jwt.split(".")
  return parts.length === 3 ? segmentObject(parts[0]) : undefined
}

/** The payload of the compact JWS `jwt`, unverified; `undefined` when it is not a JSON object. */
export function unverifiedPayload(jwt: string): Record<string, unknown> | undefined {
  const parts = jwt.split(".")
  return parts.length === 3 ? segmentObject(parts[1]) : undefined
}

/** The signing input and the signature bytes of the compact JWS `jwt`; `undefined` when malformed. */
export function signedParts(jwt: string): { input: Uint8Array<ArrayBuffer>; signature: Uint8Array<ArrayBuffer> } | undefined {
  const parts = jwt.split(".")
  const signature = parts[2]
  if (parts.length !== 3 || signature === undefined || signature.length % 4 === 1 || !SEGMENT.test(signature)) return undefined
  return { input: new TextEncoder().encode(`${parts[0]}.${parts[1]}`), signature: decodeBase64url(signature) }
}
