/**
 * JWT sessions as a `SessionStore`: the session is its sealed cookie (jwt-session-token.ts), so
 * there is no row to read, slide, confirm or revoke. A read decodes the cookie and runs the `jwt`
 * and `session` callbacks; `/session` re-issues the cookie once it is older than `updateAge` (or
 * when provider tokens were refreshed, or the `jwt` callback changed the token); sign-out clears it. The confirmed read is the cookie
 * itself, bound to this browser, at a version the shared store confirms. Revoking every session
 * of a user raises their session version (session-versions.ts), so each older token is signed out
 * at its next read; revoking one session needs database sessions and says so. A change to the user
 * (a new address) re-seals this browser's token at once; the user's other browsers show it after
 * their next sign-in, as their tokens were sealed before it.
 */
import { InvalidOptionError } from "../errors.js"
import { bindToBrowser, notThisBrowsers } from "./browser-binding.js"
import { fireEvent } from "./events.js"
import {
  applyJwtCallback,
  clearSessionCookies,
  decodeSessionCookie,
  defaultClaims,
  isConfirmedVersion,
  isThisBrowsers,
  publicClaims,
  readClaims,
  readFreshClaims,
  reissuedCookies,
  revokeVersions,
  sessionCookies,
  sessionFor,
  versionForNewSession,
} from "./jwt-session-token.js"
import { requestSessionToken } from "./session-cookies.js"
import { revocationKeyOf } from "./session-versions.js"
import type { SessionAnswer, SessionContext, SessionStore } from "./session-store.js"

/** Refused for JWT sessions: one session has no row to delete; a user's sessions can all be revoked. */
function needsRows(what: string): never {
  throw new InvalidOptionError("session.strategy", `${what} needs database sessions: one JWT session cannot be ended early. Use strategy "database" (with session.cache for speed).`)
}

/** Refused without a version store: nothing records that a user's tokens were revoked. */
function needsVersions(): never {
  throw new InvalidOptionError("session.revocationStore", "revokeSessions needs session.revocationStore, set to false here.")
}

const seconds = () => Math.floor(Date.now() / 1000)

/**
 * Reads the session for `/session`: when the token is older than `updateAge`, it is re-issued, so
 * the expiry slides while the user is active.
 */
async function current(context: SessionContext): Promise<SessionAnswer> {
  const read = await readFreshClaims(context)
  if (!read) return { session: null, cookies: requestSessionToken(context) ? clearSessionCookies(context) : [] }
  const { claims, tokens } = read
  // What the callback was shown, as text: it may change the token in place.
  const shown = context.callbacks.jwt && JSON.stringify(publicClaims(context, claims))
  const shaped = await applyJwtCallback(context, { token: claims, trigger: "session" })
  if (!shaped) return { session: null, cookies: clearSessionCookies(context) }
  const age = seconds() - ((claims.iat as number | undefined) ?? 0)
  // Refreshed provider tokens are written back at once, so the cookie never holds a rotated-away refresh token for long.
  // So is what the jwt callback changed (an app's own token it rotated), as Auth.js seals its answer on every read.
  const slides = age >= context.updateAge || tokens.changed || (shown !== undefined && JSON.stringify(shaped) !== shown)
  const cookies = slides ? await reissuedCookies(context, shaped, claims, tokens) : []
  const token = slides ? { ...shaped, exp: seconds() + context.sessionMaxAge } : shaped
  const session = await sessionFor(context, token, tokens.claim)
  await fireEvent(context, "session", { session, token: publicClaims(context, token) })
  return { session, cookies }
}

/** `POST /session`: the `jwt` callback runs with `trigger: "update"` and the client's data, and the cookie is re-issued. */
async function update(context: SessionContext, submitted: () => unknown): Promise<SessionAnswer | undefined> {
  const read = await readFreshClaims(context)
  if (!read) return { session: null, cookies: [] }
  let data: unknown
  try {
    data = submitted()
  } catch {
    return undefined
  }
  const { claims, tokens } = read
  const updated = await applyJwtCallback(context, { token: claims, trigger: "update", session: data })
  if (!updated) return { session: null, cookies: clearSessionCookies(context) }
  const exp = seconds() + context.sessionMaxAge
  const cookies = await reissuedCookies(context, updated, claims, tokens)
  return { session: await sessionFor(context, { ...updated, exp }, tokens.claim), cookies }
}

/** The JWT session store. */
export const jwtSessions: SessionStore = {
  rows: false,
  async read(context) {
    const read = await readFreshClaims(context)
    if (!read) return null
    const shaped = await applyJwtCallback(context, { token: read.claims, trigger: "session" })
    return shaped ? sessionFor(context, shaped, read.tokens.claim) : null
  },
  current,
  update,
  async issue(context, { user, account, profile, isNewUser, tokens }) {
    // As in Auth.js: "signUp" when the adapter created the user in this sign-in.
    const claims = await applyJwtCallback(context, { token: defaultClaims(user), user, account, profile, isNewUser, trigger: isNewUser ? "signUp" : "signIn" })
    if (!claims) return null
    // Under the key reads check it by: a `jwt` callback may write the adapter's numeric id as `sub`.
    const version = await versionForNewSession(context, revocationKeyOf(claims) ?? undefined)
    const { browser, cookies } = await bindToBrowser(context, context.sessionMaxAge)
    return [...(await sessionCookies(context, claims, browser, version, tokens)), ...cookies]
  },
  async end(context) {
    const claims = await readClaims(context)
    await fireEvent(context, "signOut", { token: claims && publicClaims(context, claims) })
    return clearSessionCookies(context)
  },
  async confirmedUser(context) {
    // No row: the session's own cookie is the session, as long as it is this browser's.
    const claims = await decodeSessionCookie(context)
    // The user a revocation names: a numeric `sub` (SERIAL ids) confirms as its decimal string, as it is revoked.
    const userId = claims ? revocationKeyOf(claims) : undefined
    if (!claims || typeof userId !== "string") return null
    if (!(await isThisBrowsers(context, claims))) return notThisBrowsers(context)
    // Asked of the shared store, not a cached copy: a change that lasts is never made for a revoked session.
    if (!(await isConfirmedVersion(context, claims))) return null
    // The app's jwt callback can end a session too (Auth.js's way: it answers null), and every read
    // honours that; a change that lasts must not be looser than a read.
    const shaped = await applyJwtCallback(context, { token: claims, trigger: "session" })
    return shaped && revocationKeyOf(shaped) === userId ? { userId } : null
  },
  async refreshUser(context, user) {
    const read = await readFreshClaims(context)
    // Only this browser's own session of that user: a stranger who opens the user's link keeps theirs.
    if (!read || read.claims.sub !== String(user.id) || !(await isThisBrowsers(context, read.claims))) return []
    // A re-sealed token is a new credential: the shared store, not a local copy, says it is not revoked.
    if (!(await isConfirmedVersion(context, read.claims))) return []
    const { sub: _sub, ...profile } = defaultClaims(user)
    const updated = await applyJwtCallback(context, { token: { ...read.claims, ...profile }, user, trigger: "update" })
    if (!updated) return clearSessionCookies(context)
    return reissuedCookies(context, updated, read.claims, read.tokens)
  },
  async fromCookies(context) {
    const claims = await readClaims(context)
    if (!claims) return { session: null, unverified: false }
    const shaped = await applyJwtCallback(context, { token: claims, trigger: "session" })
    return { session: shaped ? await sessionFor(context, shaped) : null, unverified: false }
  },
  lend: async () => undefined,
  revoke: async () => needsRows("revokeSession"),
  async revokeUser(settings, whose) {
    await revokeVersions(settings, settings.sessionVersions ?? needsVersions(), await whose())
  },
}
