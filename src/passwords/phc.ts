/**
 * The two PHC strings latchkey writes, parsed strictly and written canonically:
 *
 *     $scrypt$ln=<log2 N>,r=<block size>,p=<parallelism>$<salt>$<hash>
 *     $pbkdf2-sha256$i=<iterations>$<salt>$<hash>
 *
 * Salt and hash are standard base64 without padding, as the PHC format says. Parameters are
 * decimal without leading zeros, in exactly this order, each once. scrypt's N is written as its
 * base-2 logarithm `ln`, as passlib writes it, so no N that is not a power of two can be spelt.
 * A string is accepted only if writing what was parsed gives the same string back: no second
 * spelling of one hash, nothing ignored, nothing silently accepted.
 */
import { InvalidPasswordHashError } from "../errors.js"
import { decodeB64, encodeB64 } from "./base64.js"

/** scrypt's cost parameters as the PHC string spells them. */
export interface ScryptParameters {
  /** log2 of N, the CPU and memory cost. */
  readonly ln: number
  /** The block size. */
  readonly r: number
  /** The parallelism. */
  readonly p: number
}

/** PBKDF2-HMAC-SHA-256's cost parameter. */
export interface Pbkdf2Parameters {
  readonly iterations: number
}

/** What a derivation needs: the function with its own parameters, and the salt. */
export type HashRecipe =
  | { readonly algorithm: "scrypt"; readonly params: ScryptParameters; readonly salt: Uint8Array }
  | { readonly algorithm: "pbkdf2-sha256"; readonly params: Pbkdf2Parameters; readonly salt: Uint8Array }

/** A parsed latchkey hash: its recipe and the derived bytes. */
export type ParsedHash = HashRecipe & { readonly hash: Uint8Array }

/** The PHC identifiers latchkey writes. A stored string starting with one of these is latchkey's. */
export const PHC_IDS = ["scrypt", "pbkdf2-sha256"] as const

/** Salt and hash lengths a parse accepts, in bytes: PHC's recommended floor of 8 up to 64. */
const MIN_BYTES = 8
const MAX_BYTES = 64
/** A decimal without sign or leading zero, at most 10 digits (so it stays an exact integer). */
const DECIMAL = /^(0|[1-9][0-9]{0,9})$/

/** Writes a parsed hash as its one canonical PHC string. */
export function formatHash(parsed: ParsedHash): string {
  const params = parsed.algorithm === "scrypt" ? `ln=${parsed.params.ln},r=${parsed.params.r},p=${parsed.params.p}` : `i=${parsed.params.iterations}`
  return `$${parsed.algorithm}$${params}$${encodeB64(parsed.salt)}$${encodeB64(parsed.hash)}`
}

/** Whether a stored string claims to be one of latchkey's own hashes (`$scrypt$`, `$pbkdf2-sha256$`). */
export function isLatchkeyHash(stored: string): boolean {
  return PHC_IDS.some((id) => stored.startsWith(`$${id}$`))
}

/**
 * Parses one of latchkey's PHC strings. Throws InvalidPasswordHashError("malformed") for anything
 * that is not exactly what {@link formatHash} would write; bounds on the cost are checked by the
 * caller, which knows the limits of the runtime.
 */
export function parseHash(stored: string): ParsedHash {
  const fields = stored.split("$")
  if (fields.length !== 5 || fields[0] !== "") throw malformed("it does not have the five $-separated fields of a PHC string")
  const [, id, paramText, saltText, hashText] = fields as [string, string, string, string, string]
  const salt = decodeB64(saltText)
  const hash = decodeB64(hashText)
  if (salt === undefined || hash === undefined) throw malformed("its salt or hash is not canonical unpadded base64")
  if (salt.length < MIN_BYTES || salt.length > MAX_BYTES || hash.length < MIN_BYTES * 2 || hash.length > MAX_BYTES) {
    throw malformed(`its salt or hash length is outside ${MIN_BYTES}-${MAX_BYTES} bytes (hash at least ${MIN_BYTES * 2})`)
  }
  const values = readParameters(paramText)
  let parsed: ParsedHash
  if (id === "scrypt" && values.length === 3 && values[0]![0] === "ln" && values[1]![0] === "r" && values[2]![0] === "p") {
    parsed = { algorithm: "scrypt", params: { ln: values[0]![1], r: values[1]![1], p: values[2]![1] }, salt, hash }
  } else if (id === "pbkdf2-sha256" && values.length === 1 && values[0]![0] === "i") {
    parsed = { algorithm: "pbkdf2-sha256", params: { iterations: values[0]![1] }, salt, hash }
  } else {
    throw malformed(PHC_IDS.includes(id as never) ? `its parameters are not those of ${id} in order` : "it is not a scrypt or pbkdf2-sha256 PHC string")
  }
  if (formatHash(parsed) !== stored) throw malformed("it is not written canonically")
  return parsed
}

/** `a=1,b=2` as `[["a", 1], ["b", 2]]`; any field that is not `name=decimal` makes it malformed. */
function readParameters(text: string): Array<[string, number]> {
  return text.split(",").map((field) => {
    const at = field.indexOf("=")
    const value = field.slice(at + 1)
    if (at <= 0 || !DECIMAL.test(value)) throw malformed("a parameter is not name=decimal")
    return [field.slice(0, at), Number(value)]
  })
}

function malformed(why: string): InvalidPasswordHashError {
  return new InvalidPasswordHashError("malformed", `The stored password hash is malformed: ${why}.`)
}
