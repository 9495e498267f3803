/**
 * `latchkey/client`: the browser client, with no framework. It signs in and out, reads and updates
 * the session over the handler's routes, and keeps the session fresh across tabs (a
 * BroadcastChannel, else `storage` events) and on window focus. Every call answers a value: nothing
 * throws to redirect, and a refusal keeps its code (`CredentialsSignin` with the code `authorize`
 * threw). The CSRF token is fetched and sent for you. No Node-only code.
 *
 * @module
 */
export { createAuthClient } from "./client.js"
export { signIn, signOut, getSession, update, getProviders, getCsrfToken, signUp, requestPasswordReset, resetPassword, changePassword, changeEmail } from "./default-client.js"
export { SessionRouteNotFoundError } from "../errors.js"
export type {
  AuthClient,
  AuthClientError,
  AuthClientOptions,
  ChangeEmailFields,
  ChangePasswordFields,
  ClientProvider,
  PasswordCallOptions,
  PasswordPolicyRefusal,
  PasswordResult,
  ResetPasswordFields,
  SessionState,
  SessionStatus,
  SignInOptions,
  SignInResult,
  SignOutOptions,
  SignOutResult,
  SignUpFields,
} from "./types.js"
/**
 * The session the client holds: `latchkey`'s `Session`, exported here too for browser code that
 * seeds a client with the server's session. Augmenting it in `latchkey` changes it here.
 *
 * @example
 * ```ts
 * import { createAuthClient, type Session } from "latchkey/client"
 * export const clientFor = (session: Session | null) => createAuthClient({ session })
 * ```
 */
export type { Session } from "../types.js"
