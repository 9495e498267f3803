/**
 * The adapter methods each feature calls, in one table, so a reader sees what an adapter must
 * implement for the features an app turns on. `createAuth` checks them once, when the
 * configuration is known (`requireAdapterMethods`, and database sessions in handler/startup.ts),
 * and each feature asks for its row again through `withAdapterMethods` before it calls one, so a
 * missing method is a `MissingAdapterMethodError` naming it, never a `TypeError` halfway through a
 * write.
 */
import { LINKING_METHODS } from "../oauth/account-linking.js"
import { withAdapterMethods, type Adapter } from "./adapter.js"

/** What account linking calls (`resolveSignIn`): every OAuth and OIDC sign-in with an adapter (declared beside it). */
export { LINKING_METHODS }

/**
 * Email sign-in, as Auth.js checks it: the single-use tokens, and the user with the address. A
 * first sign-in also calls `createUser` (checked when it happens); no account row is written.
 */
export const EMAIL_METHODS = ["createVerificationToken", "useVerificationToken", "getUserByEmail"] as const satisfies readonly (keyof Adapter)[]

/** Passkeys, as Auth.js lists them: what the passkey routes call. */
export const PASSKEY_METHODS = ["createUser", "getUser", "linkAccount", "getAccount", "getAuthenticator", "createAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter"] as const satisfies readonly (keyof Adapter)[]

/**
 * Password accounts (`Password()` with the `passwords` plug-in): the hash column's two methods, the
 * users, and the single-use tokens of the mailed links. `deleteUser` undoes a sign-up whose hash
 * could not be stored.
 */
export const PASSWORD_METHODS = ["getUserPassword", "setUserPassword", "createUser", "getUser", "getUserByEmail", "updateUser", "deleteUser", "createVerificationToken", "useVerificationToken"] as const satisfies readonly (keyof Adapter)[]

/** Database sessions: a row per session. */
export const SESSION_METHODS = ["createSession", "getSessionAndUser", "updateSession", "deleteSession"] as const satisfies readonly (keyof Adapter)[]

/**
 * Checks once, when the configuration is known, that the adapter has every method the providers'
 * sign-ins will call: email providers need an adapter with the email methods, and OAuth and OIDC
 * providers, when an adapter is configured, the linking ones (without an adapter they sign in
 * with the session token alone). Password accounts with database sessions (`sessionRows`) need
 * `deleteSessionsByUserId` too. Credentials providers never touch the adapter. Throws a
 * `MissingAdapterMethodError` naming the provider and the missing methods. Called by `createAuth`.
 *
 * @example
 * ```ts
 * requireAdapterMethods(adapter, [{ id: "resend", type: "email" }]) // throws when adapter has no useVerificationToken
 * ```
 */
export function requireAdapterMethods(adapter: Adapter | undefined, providers: readonly { id: string; type: string }[], sessionRows = false): void {
  for (const { id, type } of providers) {
    const feature = `provider "${id}" (${type} sign-in)`
    if (type === "email") withAdapterMethods(adapter, EMAIL_METHODS, feature)
    else if (type === "webauthn") withAdapterMethods(adapter, PASSKEY_METHODS, feature)
    // A reset, and a change that signs out everywhere, end the user's sessions: with database
    // sessions that is a method no @auth/* adapter has, asked for here rather than mid-reset.
    else if (type === "password") withAdapterMethods(adapter, sessionRows ? [...PASSWORD_METHODS, "deleteSessionsByUserId"] : PASSWORD_METHODS, feature)
    else if ((type === "oauth" || type === "oidc") && adapter !== undefined) withAdapterMethods(adapter, LINKING_METHODS, feature)
  }
}
