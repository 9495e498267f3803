// The browser bundle of the client's test pages: latchkey/client, from src/, as window.latchkey.
import * as latchkey from "../../src/client/index.js"

declare global {
  interface Window {
    latchkey: typeof latchkey
  }
}

window.latchkey = latchkey
