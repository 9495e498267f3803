// A browser's cookies for the session benches: the Set-Cookie pairs a response writes, a Cookie
// header from pairs (a later pair replaces an earlier one of the same name), and a credentials
// sign-in of `ada` through an app's handler, as a page's form would post it.

/** The `name=value` pairs a response sets (cleared cookies left out). */
export const pairsOf = (response) => response.headers.getSetCookie().map((line) => line.split(";")[0]).filter((pair) => !pair.endsWith("="))

/** A Cookie header from pairs, the last of each name winning. */
export const header = (pairs) => [...new Map(pairs.map((pair) => pair.split(/=(.*)/s).slice(0, 2)))].map(([name, value]) => `${name}=${value}`).join("; ")

/** Signs `ada` in through `handler`'s credentials form at `origin`; answers the browser's cookie pairs. */
export async function signInPairs(handler, origin) {
  const csrf = await handler(new Request(`${origin}/auth/csrf`))
  const pairs = pairsOf(csrf)
  const { csrfToken } = await csrf.json()
  const body = new URLSearchParams({ csrfToken, username: "ada" })
  const response = await handler(new Request(`${origin}/auth/signin/credentials`, { method: "POST", headers: { cookie: header(pairs), "content-type": "application/x-www-form-urlencoded" }, body }))
  return [...pairs, ...pairsOf(response)]
}
