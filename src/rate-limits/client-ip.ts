/**
 * Which client a request comes from, as far as the app's proxies can be believed. A Web `Request`
 * carries no peer address, so the only source is a header a proxy set, and a header is believed
 * only when the app said which proxy sets it (`trustedProxy`): otherwise anyone could write
 * `X-Forwarded-For: 203.0.113.7` and be a new client on every request. Without that setting there
 * is no client, and the limits fall back to the identifier alone (never to one shared bucket).
 * IPv6 addresses are grouped by their /64 (one subscriber usually holds a whole /64), except an
 * IPv4 client written in IPv6, which is keyed as its IPv4 address.
 *
 * @module
 */

/**
 * Which proxy the app runs behind, so which header names the client: `"vercel"` (`x-real-ip`),
 * `"cloudflare"` (`cf-connecting-ip`), `"fly"` (`fly-client-ip`), `"nginx"` (the right-most
 * `x-forwarded-for` entry, as `proxy_add_x_forwarded_for` appends it); `{ header, hops }` for
 * another chain (`hops` proxies of the app's own append to the header, so the client is the
 * `hops`-th entry from the right; default 1); or a function for a runtime that knows the peer.
 * Setting it also trusts the proxy's Host headers, as `trustHost` does.
 *
 * Exported from `latchkey`.
 *
 * @example
 * ```ts
 * import { createAuth, type TrustedProxy } from "latchkey"
 * import GitHub from "latchkey/providers/github"
 * const trustedProxy: TrustedProxy = { header: "x-forwarded-for", hops: 2 } // a load balancer, then nginx
 * export const { handler, auth } = createAuth({ providers: [GitHub], trustedProxy })
 * ```
 */
export type TrustedProxy = "vercel" | "cloudflare" | "fly" | "nginx" | { header: string; hops?: number } | ((request: Request) => string | undefined)

const PRESETS: Record<string, { header: string; hops: number }> = {
  vercel: { header: "x-real-ip", hops: 1 },
  cloudflare: { header: "cf-connecting-ip", hops: 1 },
  fly: { header: "fly-client-ip", hops: 1 },
  nginx: { header: "x-forwarded-for", hops: 1 },
}

/** The longest textual IPv6 address with an embedded IPv4 and a zone is well under this. */
const MAX_IP_LENGTH = 64

/** The `hops`-th entry from the right of a comma-separated header, trimmed; undefined when it has fewer. */
export function fromRight(value: string, hops: number): string | undefined {
  // One proxy and one address, the usual case: nothing to split.
  if (hops === 1 && !value.includes(",")) return value.trim()
  const entries = value.split(",")
  return entries.length >= hops ? entries[entries.length - hops]!.trim() : undefined
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/
/** An IPv4 address already in its one written form (each part 0–255, no leading zero): the key as it stands. */
const CANONICAL_IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/

/** An address followed by a port, IPv4 or bracketed IPv6: the address is group 1 or group 2. */
const WITH_PORT = /^(?:(\d{1,3}(?:\.\d{1,3}){3})|\[([^\]]+)\]):\d{1,5}$/

/** `a.b.c.d` with each part 0–255 (leading zeros dropped), or undefined. One match: every attempt reads it. */
function ipv4(value: string): string | undefined {
  const match = IPV4.exec(value)
  if (match === null) return undefined
  const [a, b, c, d] = [Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4])]
  return a <= 255 && b <= 255 && c <= 255 && d <= 255 ? `${a}.${b}.${c}.${d}` : undefined
}

/** The eight hextets of an IPv6 address written by the URL parser (compressed, lower-case, no zone). */
function hextets(canonical: string): string[] {
  const [head = "", tail] = canonical.split("::")
  const left = head === "" ? [] : head.split(":")
  const right = tail === undefined || tail === "" ? [] : tail.split(":")
  return [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
}

/** Whether the hextets from `from` up to `to` are all zero. */
function zeros(parts: string[], from: number, to: number): boolean {
  for (let index = from; index < to; index++) if (parts[index] !== "0") return false
  return true
}

/**
 * Whether an IPv6 address is an IPv4 client in IPv6's clothes, its last 32 bits the IPv4 address:
 * IPv4-mapped (`::ffff:0:0/96`), SIIT's IPv4-translated (`::ffff:0:0:0/96`), NAT64's well-known
 * prefix (`64:ff9b::/96`, RFC 6052) and the /96 of its local-use prefix (`64:ff9b:1::/96`, RFC 8215),
 * or IPv4-compatible (`::/96`, but not `::` nor `::1`). Keyed by the /64, every IPv4 client behind
 * one NAT64 gateway would share one count, and one abuser would lock all of them out. A NAT64
 * prefix of an operator's own cannot be told from its other addresses, and is keyed by its /64.
 */
function embedsIpv4(parts: string[]): boolean {
  if (parts[0] === "64" && parts[1] === "ff9b") return (parts[2] === "0" || parts[2] === "1") && zeros(parts, 3, 6)
  if (!zeros(parts, 0, 4)) return false
  if (parts[4] === "ffff") return parts[5] === "0"
  return parts[4] === "0" && (parts[5] === "ffff" || (parts[5] === "0" && !(parts[6] === "0" && (parts[7] === "0" || parts[7] === "1"))))
}

/**
 * The client key of an address: an IPv4 address as it is (an IPv4 client written in IPv6 too,
 * see {@link embedsIpv4}), an IPv6 address as its /64 prefix; undefined for anything that is not
 * an IP address.
 */
export function clientKeyOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.length > MAX_IP_LENGTH) return undefined
  const trimmed = raw.trim()
  // The common case first, in one test: what a proxy writes is already canonical.
  if (CANONICAL_IPV4.test(trimmed)) return trimmed
  const plain = ipv4(trimmed)
  if (plain !== undefined) return plain
  // Some load balancers (Azure's among them) write the client's port too: `a.b.c.d:port`, `[v6]:port`.
  const value = trimmed.replace(WITH_PORT, "$1$2").replace(/^\[|\]$/g, "").replace(/%.*$/, "")
  const v4 = ipv4(value)
  if (v4 !== undefined) return v4
  if (!value.includes(":") || !/^[0-9A-Fa-f:.]+$/.test(value)) return undefined
  let canonical: string
  try {
    canonical = new URL(`http://[${value}]/`).hostname.slice(1, -1)
  } catch {
    return undefined
  }
  const parts = hextets(canonical)
  if (embedsIpv4(parts)) {
    const [high, low] = [parseInt(parts[6]!, 16), parseInt(parts[7]!, 16)]
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
  }
  return `${parts.slice(0, 4).join(":")}::/64`
}

/**
 * The client key of a request under the app's proxy setting, or undefined when no client can be
 * believed: no setting, the header missing, fewer entries than hops, or not an IP address.
 */
export function clientKeyOfRequest(request: Request, proxy: TrustedProxy | undefined): string | undefined {
  if (proxy === undefined) return undefined
  if (typeof proxy === "function") return clientKeyOf(proxy(request))
  const { header, hops = 1 } = typeof proxy === "string" ? PRESETS[proxy]! : proxy
  const value = request.headers.get(header)
  return value === null ? undefined : clientKeyOf(fromRight(value, hops))
}

/**
 * How many of the app's own proxies append to a forwarding header under `proxy`: 1 for a preset,
 * an object's `hops`; undefined without a setting, or for a function (it knows the peer, not the chain).
 */
export function proxyHops(proxy: TrustedProxy | undefined): number | undefined {
  if (proxy === undefined || typeof proxy === "function") return undefined
  return typeof proxy === "string" ? 1 : (proxy.hops ?? 1)
}

/** Whether `value` is a setting {@link clientKeyOfRequest} can use. */
export function isTrustedProxy(value: unknown): value is TrustedProxy {
  if (typeof value === "string") return Object.hasOwn(PRESETS, value)
  if (typeof value === "function") return true
  if (typeof value !== "object" || value === null) return false
  const { header, hops } = value as { header?: unknown; hops?: unknown }
  return typeof header === "string" && header !== "" && (hops === undefined || (Number.isSafeInteger(hops) && (hops as number) >= 1))
}
