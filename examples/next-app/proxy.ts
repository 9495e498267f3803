// Next.js 16's proxy (middleware before it): signed-out visitors of /protected are sent to sign in
// from the session cookie alone, before any page code runs.
import { proxy as latchkeyProxy } from "./auth"

export const proxy = latchkeyProxy({
  authorized: ({ auth }) => auth !== null,
})

export const config = { matcher: ["/protected/:path*"] }
