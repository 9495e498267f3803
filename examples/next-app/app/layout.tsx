// The root layout reads the session on the server and hands it to SessionProvider, so the first
// render already shows the right state (no flash of signed-out content). With Cache Components
// (create-next-app's default), reading the request must sit inside <Suspense>: the static shell is
// sent at once, and the part that depends on the session streams in after it.
import { Suspense, type ReactNode } from "react"
import { SessionProvider } from "latchkey/react"
import { auth } from "../auth"

export const metadata = { title: "latchkey + Next.js" }

async function WithSession({ children }: { children: ReactNode }) {
  const session = await auth()
  return <SessionProvider session={session}>{children}</SessionProvider>
}

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ font: "16px system-ui, sans-serif", maxWidth: "40rem", margin: "2rem auto", padding: "0 1rem" }}>
        <Suspense fallback={<p>Loading…</p>}>
          <WithSession>{children}</WithSession>
        </Suspense>
      </body>
    </html>
  )
}
