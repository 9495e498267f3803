// The root layout reads the session on the server and hands it to SessionProvider, so the first
// render already shows the right state (no flash of signed-out content).
import type { ReactNode } from "react"
import { SessionProvider } from "latchkey/react"
import { auth } from "../auth"

export const metadata = { title: "latchkey + Next.js" }

export default async function RootLayout({ children }: { children: ReactNode }) {
  const session = await auth()
  return (
    <html lang="en">
      <body style={{ font: "16px system-ui, sans-serif", maxWidth: "40rem", margin: "2rem auto", padding: "0 1rem" }}>
        <SessionProvider session={session}>{children}</SessionProvider>
      </body>
    </html>
  )
}
