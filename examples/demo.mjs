// npm run demo: a working sign-in with no accounts anywhere. An embedded OpenID Provider and an
// example app run in this process; open the printed URL and click "Sign in with Demo", or sign up
// with a passkey (and add one to the Demo user from the home page).
// `npm run demo -- --smoke` does the same sign-in headlessly, prints the session and exits.
// PORT picks the app's port (default 3000; the smoke run takes a free one unless PORT is set).
// `--db` keeps users and sessions in PGlite (embedded PostgreSQL) through @auth/drizzle-adapter.
import { startDemo } from "./demo-app.mjs"

const smoke = process.argv.includes("--smoke")
const port = process.env.PORT ? Number(process.env.PORT) : smoke ? 0 : 3000
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number (0-65535), not "${process.env.PORT}".`)
  process.exit(1)
}
let demo
try {
  const database = process.argv.includes("--db") ? await (await import("./demo-db.mjs")).demoDatabase() : undefined
  demo = await startDemo({ port, database })
} catch (error) {
  if (error?.code !== "EADDRINUSE") throw error
  console.error(`Port ${port} is already in use: stop what runs there, or pick another with PORT=${port + 1} npm run demo.`)
  process.exit(1)
}

if (!smoke) {
  console.log(`\nlatchkey demo running${process.argv.includes("--db") ? ", with database sessions in PGlite" : ""}.\n\n  App:      ${demo.url}\n  Provider: ${demo.issuer} (user "ada", password "demo", pre-filled)\n\nOpen ${demo.url} and click "Sign in with Demo", or create an account with a passkey. Ctrl+C to stop.\n`)
} else {
  const jar = new Map()
  const send = async (url, init = {}) => {
    const target = new URL(url)
    const cookie = [...(jar.get(target.origin) ?? new Map())].map(([k, v]) => `${k}=${v}`).join("; ")
    const response = await fetch(target, { ...init, redirect: "manual", headers: { ...init.headers, cookie } })
    const cookies = jar.get(target.origin) ?? new Map()
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const at = pair.indexOf("=")
      if (/max-age=0/i.test(line)) cookies.delete(pair.slice(0, at))
      else cookies.set(pair.slice(0, at), pair.slice(at + 1))
    }
    jar.set(target.origin, cookies)
    return response
  }
  const follow = async (url, init) => {
    let response = await send(url, init)
    while (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get("location"), url).href
      response = await send(url)
    }
    return { response, url }
  }
  const signInPage = await (await follow(`${demo.url}/auth/signin`)).response.text()
  const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(signInPage)[1]
  const form = { "content-type": "application/x-www-form-urlencoded" }
  const atProvider = await follow(`${demo.url}/auth/signin/demo`, { method: "POST", headers: form, body: new URLSearchParams({ csrfToken, callbackUrl: "/" }) })
  const action = /action="([^"]+)"/.exec(await atProvider.response.text())[1]
  const back = await follow(new URL(action, atProvider.url).href, { method: "POST", headers: form, body: new URLSearchParams({ username: "ada", password: "demo" }) })
  const session = await (await send(`${demo.url}/auth/session`)).json()
  console.log(JSON.stringify({ landedOn: back.url, session }, null, 2))
  await demo.close()
  if (!session?.user?.email) {
    console.error("smoke: no session after sign-in")
    process.exit(1)
  }
}
