// The browser bundle of the React page: hydrates the server's HTML with the session it rendered.
// The top-level signIn/signOut of latchkey/client (a separate client) are exposed for the tests, and a
// way to render the page again with a new session prop.
import { createElement } from "react"
import { hydrateRoot } from "react-dom/client"
import { signIn, signOut } from "../../src/client/index.js"
import { SessionProvider } from "../../src/react/index.js"
import type { Session } from "../../src/types.js"
import { ReactApp } from "./client-react-app.js"

declare global {
  interface Window {
    SESSION: Session | null
    /** The page needs a signed-in user (useSession({ required: true })). */
    REQUIRED: boolean
    topLevel: { signIn: typeof signIn; signOut: typeof signOut }
    /** Renders the page again with another session prop, as a server re-render after a server action does. */
    rerender: (session: Session | null) => void
  }
}

window.topLevel = { signIn, signOut }
const root = hydrateRoot(document.getElementById("root")!, createElement(SessionProvider, { session: window.SESSION }, createElement(ReactApp, { required: window.REQUIRED })))
window.rerender = (session) => root.render(createElement(SessionProvider, { session }, createElement(ReactApp, { required: window.REQUIRED })))
