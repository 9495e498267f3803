// npm run demo (for now): a session token's whole life, on the built package. It seals a session,
// writes it as Set-Cookie headers, reads it back from a request the way a route handler would, and
// shows that Auth.js v5 reads the same cookie. The sign-in demo replaces this when createAuth lands.
import { decode as authjsDecode } from "@auth/core/jwt"
import { encode, getToken, setCookieHeaders, SECURE_SESSION_COOKIE_NAME } from "latchkey/jwt"

const secret = process.env.AUTH_SECRET ?? "demo-secret-do-not-use-in-production-0123456789"
const name = SECURE_SESSION_COOKIE_NAME

const token = await encode({ token: { sub: "demo-user", name: "Ada Lovelace", email: "ada@example.com" }, secret, salt: name })
const setCookies = setCookieHeaders({ name, value: token, options: { maxAge: 60 * 60 } })
console.log("1. Sealed a session and wrote it as a cookie:")
for (const line of setCookies) console.log(`   Set-Cookie: ${line.slice(0, 72)}…`)

const cookie = setCookies.map((line) => line.split(";")[0]).join("; ")
const request = new Request("https://app.example.com/dashboard", { headers: { cookie } })
const session = await getToken({ req: request, secret })
console.log("\n2. A later request carries it; getToken({ req }) reads it back:")
console.log(`   ${JSON.stringify(session)}`)

const seenByAuthjs = await authjsDecode({ token, secret, salt: name })
console.log("\n3. Auth.js v5 (@auth/core) decodes the very same cookie:")
console.log(`   ${JSON.stringify({ sub: seenByAuthjs?.sub, name: seenByAuthjs?.name })}`)

if (session?.sub !== "demo-user" || seenByAuthjs?.sub !== "demo-user") {
  console.error("\nThe round trip did not give the session back.")
  process.exit(1)
}
console.log("\nRound trip complete.")
