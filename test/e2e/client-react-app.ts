// The React page of the client's browser tests, rendered by the server (react-dom/server) and
// hydrated in Chromium from the same source. Every render's status is recorded in
// window.renders, so a test can prove that no render ever showed anything but the session.
import { createElement as h } from "react"
import { useAuthClient, useSession } from "../../src/react/index.js"
import type { Session } from "../../src/types.js"

type AppSession = Session & { theme?: string }

declare global {
  interface Window {
    renders?: string[]
  }
}

export function ReactApp({ required = false }: { required?: boolean }) {
  const { data, status, update } = useSession<AppSession>({ required })
  const client = useAuthClient()
  if (typeof window !== "undefined") (window.renders ??= []).push(status)
  return h(
    "main",
    null,
    h("p", { id: "status" }, status),
    h("p", { id: "name" }, data?.user?.name ?? ""),
    h("p", { id: "theme" }, data?.theme ?? ""),
    h("button", { type: "button", onClick: () => void update({ theme: "dark" }) }, "Dark theme"),
    h("button", { type: "button", onClick: () => void client.signOut({ redirect: false }) }, "Sign out here"),
  )
}
