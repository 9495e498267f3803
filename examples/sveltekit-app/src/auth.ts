// The app's one latchkey instance. The "Demo" provider is the embedded OpenID Provider the tests
// start (examples/demo-provider.mjs); a real app lists GitHub, Google and so on here instead.
import { memoryAdapter } from "latchkey/adapters"
import { passwords } from "latchkey/passwords"
import Password from "latchkey/providers/password"
import { Latchkey } from "latchkey/sveltekit"

export const { handle, signIn, signOut, signUp } = Latchkey({
  providers: [
    {
      id: "demo",
      name: "Demo",
      type: "oidc",
      issuer: process.env.DEMO_ISSUER ?? "http://127.0.0.1:4010",
      clientId: "latchkey-demo",
      clientSecret: "latchkey-demo-secret",
      authorization: { params: { scope: "openid email profile" } },
    },
    // Password accounts (/signup): this demo keeps users in memory and writes its mails to the log.
    Password({ requireEmailVerification: false, sendEmail: (mail) => console.info(`mail: ${mail.kind} to ${mail.to}`) }),
  ],
  adapter: memoryAdapter(),
  passwords,
  // JWT sessions, as without an adapter: the adapter here only keeps the password accounts.
  session: { strategy: "jwt" },
  // secret: AUTH_SECRET, and the public URL: AUTH_URL (both from the environment)
})
