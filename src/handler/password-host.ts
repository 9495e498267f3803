/**
 * What the handler lends the password routes (which live in `latchkey/passwords`): its CSRF check
 * and tokens, this browser's signed-in user (confirmed against the row: the session store's
 * `confirmedUser`), its sign-in completion, ending a user's sessions, its events, its redirect check,
 * its pages and its answers. The routes get these and nothing else of the handler.
 */
import { csrfToken } from "../adapters/browser-binding.js"
import { InvalidOptionError } from "../errors.js"
import { fireEvent } from "../adapters/events.js"
import type { PasswordHost } from "../passwords/host.js"
import { completeSignIn } from "./complete-sign-in.js"
import type { RequestContext } from "./context.js"
import { verifyCsrf } from "./csrf.js"
import { passwordPage } from "./pages/password.js"
import { safeRedirect } from "./redirect.js"
import { html, json, redirect } from "./response.js"
import { returnedRedirect, wantsReturnedRedirect } from "./return-redirect.js"

/** Whether the caller wants JSON: latchkey/client's header, or a JSON body. */
function wantsJson(request: Request): boolean {
  const type = (request.headers.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase()
  return wantsReturnedRedirect(request) || type === "application/json"
}

/** A redirect as `200 { url }` (with its cookies) for a script, else as it is. */
function answerFor(context: RequestContext, scripted: boolean, response: Response): Response {
  if (!scripted || wantsReturnedRedirect(context.request)) return response
  return returnedRedirect(context, response)
}

/**
 * Ends every session of a user. A session store that cannot (JWT sessions without a per-user
 * session version) says so in the log instead of failing the reset that asked: the password has
 * changed already, and the old sessions last until they expire.
 */
async function revokeSessions(context: RequestContext, userId: string): Promise<void> {
  try {
    await context.sessions.revokeUser(context, async () => userId)
  } catch (error) {
    if (context.sessions.rows || !(error instanceof InvalidOptionError)) throw error
    context.logger.warn("PASSWORD_SESSIONS_NOT_REVOKED", { message: "a password reset or change could not end the user's other JWT sessions: they last until they expire. Use database sessions to end them at once." })
  }
}

/** The capabilities of this request for the password routes. */
export function passwordHost(context: RequestContext): PasswordHost {
  const scripted = wantsJson(context.request)
  return {
    request: context.request,
    url: context.url,
    baseUrl: context.baseUrl,
    secret: context.secret,
    adapter: context.adapter,
    logger: context.logger,
    wantsJson: scripted,
    signInUrl: new URL(context.pages.signIn ?? `${context.baseUrl}/signin`, context.origin).href,
    verifyCsrf: (submitted) => verifyCsrf(context, submitted),
    csrfToken: () => csrfToken(context),
    // Changing a password or an address is a change that lasts: the row decides, never the cache.
    signedInUser: () => context.sessions.confirmedUser(context),
    completeSignIn: ({ user, providerId, isNewUser, callbackUrl }) =>
      completeSignIn(context, {
        user,
        account: { provider: providerId, type: "credentials", providerAccountId: user.id! },
        provider: { id: providerId, type: "credentials" },
        // The routes found or made the user themselves: no account linking.
        resolveUser: async () => ({ user, isNewUser }),
        callbackUrl: callbackUrl ?? undefined,
      }),
    revokeSessions: (userId) => revokeSessions(context, userId),
    fireEvent: (name, message) => fireEvent(context, name, message),
    safeRedirect: (requested) => safeRedirect(context, requested ?? undefined),
    go: (url, cookies = []) => answerFor(context, scripted, redirect(url, cookies)),
    json,
    redirect,
    asAnswer: (response) => answerFor(context, scripted, response),
    page: (name, props, cookies = []) => html(passwordPage(name, props, context.theme), cookies),
  }
}
