/**
 * What to set when the app's public URL is unknown: no `AUTH_URL`, and Host headers not trusted.
 * The handler cannot build a callback URL or a cookie it can vouch for, so it refuses; the log
 * (and, in development, the page) says which of the two settings to make, with the value this
 * request suggests, instead of a bare "Untrusted host". Loaded on demand, and imports nothing.
 */

/** The fix for a request that came to `origin`, with the handler at `basePath`. */
export function untrustedHostFix(origin: string, basePath: string): string {
  return `Untrusted host: set AUTH_URL to the app's public URL (such as AUTH_URL=${origin}${basePath}), or trustHost: true (AUTH_TRUST_HOST=true) when the app runs behind a proxy you trust to set the Host header.`
}
