/**
 * What the handler lends the passkey routes (which live in `latchkey/webauthn`): its CSRF check,
 * this browser's signed-in user (confirmed against the database row: the session store's `confirmedUser`),
 * its sign-in completion, its events, its email normalisation and redirect check, and its response
 * builders. The routes get these and nothing else of the handler.
 */
import type { EmailConfig } from "../providers/types.js"
import type { PasskeyHost } from "../webauthn/host.js"
import { completeSignIn } from "./complete-sign-in.js"
import { fireEvent } from "../adapters/events.js"
import type { RequestContext } from "./context.js"
import { verifyCsrf } from "./csrf.js"
import { normalizeEmail } from "./email.js"
import { safeRedirect } from "./redirect.js"
import { json, text } from "./response.js"

/**
 * The app's email sign-in, whose `normalizeIdentifier` a passkey sign-up applies too: an address
 * signs up as the same user whichever way it arrives. Without an email provider, the default rules.
 */
function emailSignIn(context: RequestContext): Pick<EmailConfig, "normalizeIdentifier"> {
  return context.providers.find((provider): provider is Extract<typeof provider, { type: "email" }> => provider.type === "email") ?? {}
}

/** The capabilities of this request for the passkey routes. */
export function passkeyHost(context: RequestContext): PasskeyHost {
  return {
    request: context.request,
    url: context.url,
    origin: context.origin,
    secure: context.secure,
    secret: context.secret,
    providers: context.providers,
    adapter: context.adapter,
    logger: context.logger,
    instance: context.instance,
    verifyCsrf: (submitted) => verifyCsrf(context, submitted),
    // Every passkey route adds, renames, deletes or lists credentials: the row decides, never the cache.
    signedInUser: () => context.sessions.confirmedUser(context),
    completeSignIn: ({ providerId, ...signIn }) => completeSignIn(context, { ...signIn, provider: { id: providerId, type: "webauthn" } }),
    fireEvent: (name: "createUser" | "linkAccount", message: never) => fireEvent(context, name, message),
    normalizeEmail: (raw) => normalizeEmail(emailSignIn(context), raw),
    safeRedirect: (requested) => safeRedirect(context, requested),
    json,
    text,
  }
}
