// The app's one latchkey instance. The "Demo" provider is the embedded OpenID Provider the tests
// start (examples/demo-provider.mjs); a real app lists GitHub, Google and so on here instead.
import { Latchkey } from "latchkey/next"

export const { handlers, auth, signIn, signOut, proxy } = Latchkey({
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
  ],
  // secret: AUTH_SECRET, and the public URL: AUTH_URL (both from the environment)
})
