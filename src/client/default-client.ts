/**
 * The top-level `signIn`, `signOut`, `getSession`, `update`, `getProviders` and `getCsrfToken`:
 * one client for the handler at `/auth`, made on first use (importing them does nothing). An app
 * mounted elsewhere makes its own with `createAuthClient({ basePath })`.
 */
import type { Session } from "../types.js"
import { createAuthClient } from "./client.js"
import type { AuthClient, ClientProvider, SignInOptions, SignInResult, SignOutOptions, SignOutResult } from "./types.js"

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
