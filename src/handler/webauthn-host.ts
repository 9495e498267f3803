/**
 * What the handler lends the passkey routes (which live in `latchkey/webauthn`): its CSRF check,
 * this browser's signed-in user, its sign-in completion, its events, its email normalisation and
 * redirect check, and its response builders. The routes get these and nothing else of the handler.
 */
import type { EmailConfig } from "../providers/types.js"
import type { PasskeyHost } from "../webauthn/host.js"
import { completeSignIn } from "./complete-sign-in.js"
import { fireEvent, type RequestContext } from "./config.js"
import { verifyCsrf } from "./csrf.js"
import { isThisBrowsersToken, readDatabaseSession } from "./database-session.js"
import { normalizeEmail } from "./email.js"
import { safeRedirect } from "./redirect.js"
import { json, text } from "./response.js"
import { isThisBrowsers, readClaims } from "./session.js"

/** The user whose session this browser holds; a session made in another browser counts as none. */
async function signedInUser(context: RequestContext): ReturnType<PasskeyHost["signedInUser"]> {
  if (context.sessionStrategy === "database") {
    const found = await readDatabaseSession(context, false)
    if (!found || !(await isThisBrowsersToken(context, found.sessionToken))) return null
    return { userId: String(found.user.id), user: found.user }
  }
  const claims = await readClaims(context)
  if (typeof claims?.sub !== "string" || !(await isThisBrowsers(context, claims))) return null
  return { userId: claims.sub }
}

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
    adapter: context.config.adapter,
    logger: context.logger,
    instance: context.config,
    verifyCsrf: (submitted) => verifyCsrf(context, submitted),
    signedInUser: () => signedInUser(context),
    completeSignIn: ({ providerId, ...signIn }) => completeSignIn(context, { ...signIn, provider: { id: providerId, type: "webauthn" } }),
    fireEvent: (name: "createUser" | "linkAccount", message: never) => fireEvent(context, name, message),
    normalizeEmail: (raw) => normalizeEmail(emailSignIn(context), raw),
    safeRedirect: (requested) => safeRedirect(context, requested),
    json,
    text,
  }
}
