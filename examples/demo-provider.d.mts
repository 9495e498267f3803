/** The demo user the embedded provider signs in. */
export const DEMO_USER: { sub: string; name: string; email: string; email_verified: boolean; picture: null; username: string; password: string }
/** Starts the demo's OpenID provider on 127.0.0.1; `redirectUris` are the app's callback URLs, `port` 0 picks a free one. */
export function startDemoProvider(options: { redirectUris: string[]; port?: number }): Promise<{ issuer: string; close(): Promise<void> }>
