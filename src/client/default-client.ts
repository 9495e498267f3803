/**
 * The top-level `signIn`, `signOut`, `getSession`, `update`, `getProviders`, `getCsrfToken` and the
 * password account calls (`signUp`, `requestPasswordReset`, `resetPassword`, `changePassword`, `changeEmail`):
 * one client for the handler at `/auth`, made on first use (importing them does nothing). An app
 * mounted elsewhere makes its own with `createAuthClient({ basePath })`.
 */
import type { Session } from "../types.js"
import { createAuthClient } from "./client.js"
import type { AuthClient, ChangeEmailFields, ChangePasswordFields, ClientProvider, PasswordCallOptions, PasswordResult, ResetPasswordFields, SignInOptions, SignInResult, SignOutOptions, SignOutResult, SignUpFields } from "./types.js"

let shared: AuthClient | undefined

/** The client behind the top-level functions. */
function defaultClient(): AuthClient {
  shared ??= createAuthClient()
  return shared
}

/**
 * {@link client!AuthClient.signIn} on the handler at `/auth`.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { signIn } from "latchkey/client"
 * const result = await signIn("credentials", { username: form.username.value, password: form.password.value, redirect: false })
 * if (!result.ok) message.textContent = result.code === "locked" ? "Account locked." : "Wrong username or password."
 * ```
 */
export function signIn(providerId?: string, options?: SignInOptions): Promise<SignInResult> {
  return defaultClient().signIn(providerId, options)
}

/**
 * {@link client!AuthClient.signOut} on the handler at `/auth`.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { signOut } from "latchkey/client"
 * button.onclick = () => signOut({ redirectTo: "/" })
 * ```
 */
export function signOut(options?: SignOutOptions): Promise<SignOutResult> {
  return defaultClient().signOut(options)
}

/**
 * {@link client!AuthClient.getSession} on the handler at `/auth`. The type parameter names the
 * session the server's `session` callback returns (`InferSession<typeof auth>`).
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { getSession } from "latchkey/client"
 * const session = await getSession()
 * greeting.textContent = session ? `Hello, ${session.user?.name}` : "Hello, guest"
 * ```
 */
export function getSession<S extends Session = Session>(): Promise<S | null> {
  return defaultClient().getSession() as Promise<S | null>
}

/**
 * {@link client!AuthClient.update} on the handler at `/auth`.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { update } from "latchkey/client"
 * const session = await update({ theme: "dark" }) // the jwt callback sees it as `session` with trigger "update"
 * ```
 */
export function update<S extends Session = Session>(data?: unknown): Promise<S | null> {
  return defaultClient().update(data) as Promise<S | null>
}

/**
 * {@link client!AuthClient.getProviders} on the handler at `/auth`.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { getProviders, signIn } from "latchkey/client"
 * for (const provider of Object.values((await getProviders()) ?? {})) {
 *   if (provider.type === "oidc") addButton(provider.name, () => signIn(provider.id))
 * }
 * ```
 */
export function getProviders(): Promise<Record<string, ClientProvider> | null> {
  return defaultClient().getProviders()
}

/**
 * {@link client!AuthClient.getCsrfToken} on the handler at `/auth`: for a plain HTML form that
 * posts to the handler itself.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { getCsrfToken } from "latchkey/client"
 * form.elements.namedItem("csrfToken").value = (await getCsrfToken()) ?? ""
 * ```
 */
export function getCsrfToken(): Promise<string | undefined> {
  return defaultClient().getCsrfToken()
}

/**
 * {@link client!AuthClient.signUp} on the handler at `/auth`: creates a password account.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { signUp } from "latchkey/client"
 * const result = await signUp({ email: form.email.value, password: form.password.value, name: form.name.value }, { redirectTo: "/welcome" })
 * if (!result.ok) message.textContent = result.error === "PasswordPolicy" ? `Password refused: ${result.reason}` : "Sign-up failed."
 * ```
 */
export function signUp(fields: SignUpFields, options?: PasswordCallOptions): Promise<PasswordResult> {
  return defaultClient().signUp(fields, options)
}

/**
 * {@link client!AuthClient.requestPasswordReset} on the handler at `/auth`: mails a reset link when
 * the address has an account, and answers the same when it has none.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { requestPasswordReset } from "latchkey/client"
 * const result = await requestPasswordReset(form.email.value)
 * message.textContent = result.ok ? "Check your email." : result.error === "RateLimited" ? `Try again in ${result.retryAfter} s.` : "Try again."
 * ```
 */
export function requestPasswordReset(email: string, options?: Pick<PasswordCallOptions, "redirectTo">): Promise<PasswordResult> {
  return defaultClient().requestPasswordReset(email, options)
}

/**
 * {@link client!AuthClient.resetPassword} on the handler at `/auth`: sets the new password with a
 * reset link's token and address.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { resetPassword } from "latchkey/client"
 * const params = new URL(location.href).searchParams
 * const result = await resetPassword({ token: params.get("token") ?? "", email: params.get("email") ?? "", password: form.password.value })
 * if (!result.ok && result.error === "InvalidToken") message.textContent = "This link has expired: ask for a new one."
 * ```
 */
export function resetPassword(fields: ResetPasswordFields, options?: PasswordCallOptions): Promise<PasswordResult> {
  return defaultClient().resetPassword(fields, options)
}

/**
 * {@link client!AuthClient.changePassword} on the handler at `/auth`.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { changePassword } from "latchkey/client"
 * const result = await changePassword({ currentPassword: form.current.value, newPassword: form.next.value, revokeOtherSessions: true })
 * if (!result.ok && result.error === "InvalidCurrentPassword") message.textContent = "Your current password is not correct."
 * ```
 */
export function changePassword(fields: ChangePasswordFields): Promise<PasswordResult> {
  return defaultClient().changePassword(fields)
}

/**
 * {@link client!AuthClient.changeEmail} on the handler at `/auth`.
 *
 * Exported from `latchkey/client`.
 *
 * @example
 * ```ts
 * import { changeEmail } from "latchkey/client"
 * const result = await changeEmail({ newEmail: form.email.value, password: form.password.value })
 * if (result.ok) message.textContent = "Open the link we sent to your new address."
 * ```
 */
export function changeEmail(fields: ChangeEmailFields): Promise<PasswordResult> {
  return defaultClient().changeEmail(fields)
}
