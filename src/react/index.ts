"use client"
/**
 * `latchkey/react`: `SessionProvider` and `useSession()` (`{ data, status, update }`), built on
 * `latchkey/client`. A session the server read is rendered at once, on the server and in the
 * browser, so signed-in pages never flash signed-out content. The module is a client module
 * (`"use client"`), for React Server Components frameworks. React 19 is an optional peer
 * dependency of latchkey.
 *
 * The top-level `signIn`, `signOut` and `getSession` come from `latchkey/client` (bound to `/auth`);
 * a provider on the same base path learns of what they do at once. `useAuthClient()` answers the
 * provider's own client.
 *
 * @module
 */
export { SessionProvider, type SessionProviderProps } from "./session-provider.js"
export { useSession, useAuthClient, type UseSessionOptions, type UseSessionResult } from "./use-session.js"
export { MissingSessionProviderError } from "../errors.js"
