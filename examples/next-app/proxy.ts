// Next.js 16's proxy (middleware before it): signed-out visitors of /protected are sent to sign in
// before any page code runs (this app keeps JWT sessions, read from the cookie alone).
import { proxy as latchkeyProxy } from "./auth"

export const proxy = latchkeyProxy({
  authorized: ({ auth }) => auth !== null,
})

export const config = { matcher: ["/protected/:path*"] }
