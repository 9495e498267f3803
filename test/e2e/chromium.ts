/**
 * Debian's Chromium for the browser suites: where it is, why it may be missing, and how every suite
 * launches it (headless, and with the background networking this machine's closed network refuses
 * turned off). CHROMIUM_PATH points elsewhere (GitHub's runners ship Google Chrome).
 */
import { existsSync } from "node:fs"
import { chromium, type Browser } from "playwright-core"

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

/** Why the browser suites cannot run here, or undefined when they can. */
export const NO_CHROMIUM = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (install Debian's chromium or set CHROMIUM_PATH)`

/** Launches the headless browser every suite uses. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  })
}
