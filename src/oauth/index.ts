/**
 * `latchkey/oauth`: the sign-in flow that makes a provider config work, built on `oauth4webapi`.
 * `startSignIn` discovers the provider (cached), builds the authorization URL and seals the PKCE,
 * state and nonce checks into provider-bound cookies; `finishSignIn` verifies those checks,
 * validates `iss`, exchanges the code, validates the id_token including its signature, and maps the
 * profile to a user and account. `refreshTokens` and `revokeToken` handle the token lifecycle, and
 * `resolveSignIn` applies the account-linking rules through an `Adapter` (from `latchkey/adapters`).
 *
 * @module
 */
export { startSignIn, type StartSignInOptions, type StartSignInResult } from "./start.js"
export { finishSignIn, type FinishSignInResult } from "./finish.js"
export { refreshTokens, revokeToken } from "./tokens.js"
export type { SignInOptions, FlowProvider } from "./context.js"
export { DEFAULT_TIMEOUT, DEFAULT_MAX_RESPONSE_BYTES, type HttpOptions } from "./http.js"
export { CHECK_MAX_AGE, checkCookieName } from "./checks.js"
export { clearDiscoveryCache, DISCOVERY_FAILURE_TTL, DISCOVERY_TTL } from "./discovery.js"
export { resolveSignIn, type ResolveSignInParams, type ResolveSignInResult } from "./resolve-sign-in.js"
export type { AccountLinkingMethods } from "./account-linking.js"
