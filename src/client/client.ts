/**
 * `createAuthClient`: the session state, kept fresh, and the calls that change it, over the
 * handler's routes. Reads in flight are shared; a read that started before a change (a sign-in, a
 * sign-out, another tab's message) never overwrites what the change brought.
 */
import { InvalidOptionError, SessionRouteNotFoundError } from "../errors.js"
import type { Session } from "../types.js"
import { announce, listen, rememberUser, startsWithAnotherUser, type SessionTrigger } from "./broadcast.js"
import { currentHref, navigate } from "./navigate.js"
import { watchRefetchTriggers } from "./refetch.js"
import { providersOf, redirectResult, sessionOf } from "./results.js"
import { createSessionStore } from "./store.js"
import { createTransport, type Outcome } from "./transport.js"
import { formOf, passwordCall, type PasswordCallsHost } from "./password.js"
import type { AuthClient, AuthClientOptions, PasswordCallOptions, SignInOptions, SignInResult, SignOutOptions, SignOutResult, SessionState } from "./types.js"

function checkOptions(options: AuthClientOptions<Session>): string {
  const basePath = (options.basePath ?? "/auth").replace(/\/+$/, "") || "/auth"
  if (!basePath.startsWith("/")) throw new InvalidOptionError("basePath", "basePath must start with /, such as /auth or /api/auth.")
  if (options.baseUrl !== undefined && !/^https?:\/\/[^/]+$/.test(options.baseUrl.replace(/\/+$/, ""))) {
    throw new InvalidOptionError("baseUrl", "baseUrl must be an origin, such as https://app.example.com.")
  }
  const interval = options.refetchInterval ?? 0
  if (!Number.isFinite(interval) || interval < 0) throw new InvalidOptionError("refetchInterval", "refetchInterval must be a number of seconds, 0 for none.")
  return basePath
}

/**
 * Where a sign-in or sign-out goes afterwards: `redirectTo`, else `byDefault` (this page). next-auth's
 * `callbackUrl` option is refused by name rather than sent on as a form field.
 */
function destinationOf(options: SignInOptions | SignOutOptions | PasswordCallOptions, byDefault = currentHref): string | undefined {
  if ((options as { callbackUrl?: unknown }).callbackUrl !== undefined) {
    throw new InvalidOptionError("callbackUrl", "the callbackUrl option is named redirectTo, as in next-auth v5: signIn(provider, { redirectTo: \"/dashboard\" }).")
  }
  return options.redirectTo ?? byDefault()
}

/**
 * The default destination on a mailed link's page: the `callbackUrl` the link carries (where the
 * user was going), else none, so the handler's default applies. Never the page itself: it is the
 * link, and its used token would go on into history and the next link.
 */
function linkDestination(): string | undefined {
  const href = currentHref()
  return (href && new URL(href).searchParams.get("callbackUrl")) || undefined
}

/** The form fields of a sign-in: every option but the client's own, as strings. */
function formFields(options: SignInOptions): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [name, value] of Object.entries(options)) {
    if (name === "redirect" || name === "redirectTo" || value === undefined) continue
    fields[name] = String(value)
  }
  return fields
}

/**
 * What the other tabs care about in a session: who is signed in (the user's id, and email or else
 * name), or nobody. Not the rest of the user: a session callback may answer new details on every
 * read (a presigned avatar URL), and tabs that told each other of those would re-read forever.
 */
function identityOf(session: Session | null): string {
  const user = session?.user as { id?: unknown; email?: unknown; name?: unknown } | undefined
  return JSON.stringify(session && [user?.id, user?.email ?? user?.name])
}

/**
 * Creates a client for the handler at `basePath`. Creating one does nothing: no request, no
 * listener, so one may be made at module scope, even in code that also runs on the server. It
 * starts listening (focus, interval, other tabs) when something subscribes.
 *
 * Exported from `latchkey/client`.
 *
 * @throws {@link index!InvalidOptionError} for a `basePath` that does not start with `/`, a
 * `baseUrl` that is not an origin, or a negative `refetchInterval`.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "latchkey/client"
 * import type { AppSession } from "./session-type" // type AppSession = InferSession<typeof auth>
 * export const client = createAuthClient<AppSession>({ basePath: "/api/auth" })
 * const result = await client.signIn("credentials", { username, password, redirect: false })
 * if (!result.ok) console.warn(result.error, result.code) // "CredentialsSignin", "credentials"
 * ```
 */
export function createAuthClient<S extends Session = Session>(options: AuthClientOptions<S> = {}): AuthClient<S> {
  const basePath = checkOptions(options as AuthClientOptions<Session>)
  const channel = `latchkey:${options.baseUrl ?? ""}${basePath}`
  const transport = createTransport({ basePath, baseUrl: options.baseUrl?.replace(/\/+$/, ""), fetch: options.fetch })
  const store = createSessionStore<S>(options.session)
  const broadcasts = options.broadcast ?? true

  /** Bumped by every change; a read started before the latest change does not set the state. */
  let generation = 0
  let inflight: { generation: number; promise: Promise<S | null> } | undefined

  let reportedMissingRoute = false
  /**
   * A 404 from the session route means nothing is mounted at `basePath` (the default `/auth` in an
   * app that kept next-auth's `/api/auth`): said once, loudly, instead of keeping a stale session quietly.
   */
  function reportMissingRoute(outcome: Outcome): void {
    if (reportedMissingRoute || "failed" in outcome || outcome.status !== 404) return
    reportedMissingRoute = true
    const error = new SessionRouteNotFoundError(transport.url("session"), basePath)
    if (options.onError) options.onError(error)
    else console.error(error)
  }

  /**
   * Reads the session; `tellsOthers` is false for a read another tab's signal caused, so a receiver
   * never signals back (as next-auth's do not): one change costs one read per tab.
   */
  function readSession(tellsOthers: boolean): Promise<S | null> {
    if (inflight?.generation === generation) return inflight.promise
    const started = generation
    // The request starts now, synchronously, so a focus event's read is under way when it returns.
    const promise = transport.get("session").then((outcome) => {
      reportMissingRoute(outcome)
      const session = sessionOf<S>(outcome)
      if (inflight?.promise === promise) inflight = undefined
      if (session === undefined) return store.get().data // unreachable or not the handler: keep what is known
      if (started === generation) {
        store.set(session)
        // A read another tab asked for needs nothing remembered: that tab already did.
        if (tellsOthers) learned(session)
      }
      return session
    })
    inflight = { generation, promise }
    return promise
  }

  const getSession = () => readSession(true)

  /** A change happened (here or elsewhere): later reads start afresh. */
  function changed(): void {
    generation++
  }

  function tell(trigger: SessionTrigger): void {
    if (broadcasts) announce(channel, trigger, fromOtherClient)
  }

  /**
   * The session as the server says it is. When its user is not the one the app's tabs last knew
   * (a sign-in or sign-out this client did not make, such as an OAuth sign-in through a server
   * action, landing on a fresh page), the other tabs read theirs again.
   */
  function learned(session: S | null, before?: SessionState<S>): void {
    const remembered = broadcasts && rememberUser(channel, identityOf(session))
    // Where there is no storage to remember in, this client's own last state still tells a change.
    const changedHere = before !== undefined && before.status !== "loading" && identityOf(before.data) !== identityOf(session)
    if (remembered || changedHere) tell("session")
  }

  // Another tab, or another client in this page, changed the session: read it again.
  function fromOtherClient(): void {
    changed()
    void readSession(false)
  }

  async function signIn(providerId?: string, signInOptions: SignInOptions = {}): Promise<SignInResult> {
    const callbackUrl = destinationOf(signInOptions)
    const { redirect = true } = signInOptions
    if (!providerId) {
      const url = `${transport.url("signin")}${callbackUrl ? `?${new URLSearchParams({ callbackUrl })}` : ""}`
      if (redirect) navigate(url)
      return { ok: true, error: undefined, code: undefined, url, status: 0 }
    }
    const fields = formFields(signInOptions)
    if (callbackUrl) fields.callbackUrl = callbackUrl
    const result = redirectResult(await transport.post(`signin/${encodeURIComponent(providerId)}`, fields))
    if (!result.ok) return result
    // A credentials sign-in set the session cookie; the other tabs (and clients) read it again.
    changed()
    tell("signin")
    if (redirect) navigate(result.url!)
    else await getSession()
    return result
  }

  async function signOut(signOutOptions: SignOutOptions = {}): Promise<SignOutResult> {
    const callbackUrl = destinationOf(signOutOptions)
    const { redirect = true } = signOutOptions
    const { ok, error, url, status } = redirectResult(await transport.post("signout", callbackUrl ? { callbackUrl } : {}))
    const result = { ok, error, url, status }
    if (!ok) return result
    changed()
    // The answer cleared the cookies: signed out, with no need to ask.
    store.set(null)
    if (broadcasts) rememberUser(channel, identityOf(null))
    tell("signout")
    if (redirect) navigate(result.url!)
    return result
  }

  async function update(data?: unknown): Promise<S | null> {
    let fields: Record<string, string> = {}
    if (data !== undefined) {
      try {
        fields = { data: JSON.stringify(data) }
      } catch {
        return store.get().data // not JSON (a cycle, a BigInt): nothing to send
      }
    }
    const started = generation
    const outcome = await transport.post("session", fields)
    reportMissingRoute(outcome)
    const session = sessionOf<S>(outcome)
    if (session === undefined) return store.get().data
    // A sign-out, a sign-in or another update landed while this was on the wire: its answer is
    // older than the state, so the server is asked again rather than believed.
    if (started !== generation) return getSession()
    changed()
    store.set(session)
    if (broadcasts) rememberUser(channel, identityOf(session))
    tell("update")
    return session
  }

  let stopWatching: (() => void) | undefined

  function subscribe(listener: Parameters<AuthClient<S>["subscribe"]>[0]): () => void {
    const unsubscribe = store.subscribe(listener)
    if (store.size() === 1) {
      const stopTriggers = watchRefetchTriggers(
        { onFocus: options.refetchOnWindowFocus ?? true, interval: options.refetchInterval ?? 0 },
        () => void getSession(),
        () => store.get().status === "authenticated",
      )
      const stopListening = broadcasts ? listen(channel, fromOtherClient) : undefined
      stopWatching = () => (stopTriggers(), stopListening?.())
      // The page started with another user than the tabs last knew: news after a sign-in the
      // client did not make, or a render that a change in another tab overtook. The server decides.
      const { status, data } = store.get()
      if (broadcasts && status !== "loading" && startsWithAnotherUser(channel, identityOf(data))) void getSession()
    }
    if (store.get().status === "loading") void getSession()
    return () => {
      unsubscribe()
      if (store.size() === 0) {
        stopWatching?.()
        stopWatching = undefined
      }
    }
  }

  function setSession(session: S | null): void {
    const before = store.get()
    changed()
    store.set(session)
    learned(session, before)
  }

  // The password account calls (client/password.ts): a sign-up without verification and a reset
  // sign the browser in, a password change issues the session again; each is then read again.
  const passwords: PasswordCallsHost = {
    transport,
    async sessionChanged() {
      changed()
      tell("session")
      await getSession()
    },
    navigate,
  }

  return {
    signIn,
    signOut,
    getSession,
    update,
    getProviders: async () => providersOf(await transport.get("providers")),
    getCsrfToken: () => transport.csrfToken(),
    subscribe,
    getState: store.get,
    setSession,
    // Async, so a refused option (callbackUrl) is a rejection, as signIn's is.
    signUp: async (fields, callOptions = {}) =>
      passwordCall(passwords, "password/sign-up", formOf({ ...fields, callbackUrl: destinationOf(callOptions) }), { signsIn: true, redirect: callOptions.redirect ?? true }),
    requestPasswordReset: async (email, callOptions = {}) =>
      passwordCall(passwords, "password/forgot", formOf({ email, callbackUrl: destinationOf(callOptions) }), { signsIn: false, redirect: false }),
    resetPassword: async ({ token, email, password }, callOptions = {}) =>
      passwordCall(passwords, "password/reset", formOf({ token, email, password, callbackUrl: destinationOf(callOptions, linkDestination) }), { signsIn: true, redirect: callOptions.redirect ?? true }),
    changePassword: ({ currentPassword, newPassword, revokeOtherSessions }) =>
      passwordCall(passwords, "password/change", formOf({ currentPassword, newPassword, revokeOtherSessions: revokeOtherSessions ? "true" : undefined }), { signsIn: true, redirect: false }),
    changeEmail: ({ newEmail, password }) => passwordCall(passwords, "password/change-email", formOf({ newEmail, password }), { signsIn: false, redirect: false }),
  }
}
