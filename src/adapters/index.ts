/**
 * `latchkey/adapters`: where users, accounts, sessions, verification tokens and passkeys are
 * stored. `Adapter` is Auth.js's adapter interface method for method (plus a few optional
 * latchkey extensions), so an Auth.js adapter such as `PrismaAdapter(prisma)` is passed to
 * `createAuth` as it is; `memoryAdapter` keeps everything in memory for tests and demos; and
 * `withAdapterMethods` narrows an adapter to the methods a feature calls, or throws a
 * `MissingAdapterMethodError` naming those it lacks. The table of which feature calls which
 * methods lives in requirements.ts. The folder is also the storage floor of `createAuth`: one
 * `SessionStore` (session-store.ts) with JWT, database and hybrid implementations, which the
 * handler calls without asking which one it has, and the session version stores that make JWT
 * sessions revocable (session-versions.ts). It sits below the plug-ins and the handler, and
 * imports only the floors under it.
 *
 * @module
 */
export type { Adapter, AdapterUser, AdapterAccount, AdapterAccountType, AdapterSession, AdapterAuthenticator, AdapterWith, VerificationToken } from "./adapter.js"
export { withAdapterMethods } from "./adapter.js"
export { memoryAdapter } from "./memory-adapter.js"
export type { SessionStore } from "./session-store.js"
export { SESSION_VERSION_CLAIM, isRevokedToken, memorySessionVersions, type SessionVersionStore } from "./session-versions.js"
