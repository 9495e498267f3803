// Which client a request is: only the header the proxy setting names, the right entry of a list,
// IPv6 grouped by /64, IPv4 written in IPv6 (mapped, NAT64, compatible) as IPv4, and anything that
// is not an address refused.
import { describe, expect, it } from "vitest"
import { clientKeyOf, clientKeyOfRequest } from "../../src/rate-limits/client-ip.js"

const request = (headers: Record<string, string>) => new Request("https://app.example.com/auth/csrf", { headers })

describe("client keys", () => {
  it("groups IPv6 by /64 in every spelling, and keys IPv4-mapped addresses as IPv4", () => {
    expect(clientKeyOf("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64")
    expect(clientKeyOf("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64")
    expect(clientKeyOf("[2001:db8:1:2::7]")).toBe("2001:db8:1:2::/64")
    expect(clientKeyOf("fe80::1%eth0")).toBe("fe80:0:0:0::/64")
    expect(clientKeyOf("::ffff:198.51.100.7")).toBe("198.51.100.7")
    expect(clientKeyOf("198.51.100.007")).toBe("198.51.100.7")
    expect(clientKeyOf(" [198.51.100.7] ")).toBe("198.51.100.7")
    expect(clientKeyOf("198.51.100.7%eth0")).toBe("198.51.100.7")
    // With the port some load balancers add: the same client.
    expect(clientKeyOf("198.51.100.7:51234")).toBe("198.51.100.7")
    expect(clientKeyOf("[2001:db8:1:2::7]:443")).toBe("2001:db8:1:2::/64")
    expect(clientKeyOf("[::ffff:198.51.100.7]:8080")).toBe("198.51.100.7")
    expect(clientKeyOf("198.51.100.7:")).toBeUndefined()
    expect(clientKeyOf("198.51.100.7:123456")).toBeUndefined()
  })

  it("keys an IPv4 client written in IPv6 as that IPv4 address: NAT64's 64:ff9b::/96 and IPv4-compatible ::/96 too", () => {
    // One /64 for the whole prefix would put every IPv4 client behind one NAT64 gateway in one count.
    expect(clientKeyOf("64:ff9b::198.51.100.1")).toBe("198.51.100.1")
    expect(clientKeyOf("64:FF9B:0:0:0:0:c633:6402")).toBe("198.51.100.2")
    expect(clientKeyOf("[64:ff9b::203.0.113.99]")).toBe("203.0.113.99")
    expect(clientKeyOf("::198.51.100.1")).toBe("198.51.100.1")
    expect(clientKeyOf("0:0:0:0:0:0:cb00:7163")).toBe("203.0.113.99")
    expect(clientKeyOf("::FFFF:c633:6407")).toBe("198.51.100.7")
    // The unspecified and loopback addresses are not IPv4 clients; nor is the rest of 64:ff9b::/64.
    expect(clientKeyOf("::")).toBe("0:0:0:0::/64")
    expect(clientKeyOf("::1")).toBe("0:0:0:0::/64")
    expect(clientKeyOf("64:ff9b::1:198.51.100.1")).toBe("64:ff9b:0:0::/64")
  })

  it("keys NAT64's local-use /96 (RFC 8215) and SIIT's IPv4-translated form (::ffff:0:0:0/96) as their IPv4 client", () => {
    // A carrier's own NAT64 under 64:ff9b:1::/48, with the /96 every NAT64 gateway offers by default.
    expect(clientKeyOf("64:ff9b:1::198.51.100.1")).toBe("198.51.100.1")
    expect(clientKeyOf("64:ff9b:1:0:0:0:cb00:7163")).toBe("203.0.113.99")
    expect(clientKeyOf("::ffff:0:198.51.100.9")).toBe("198.51.100.9")
    // Other addresses in the local-use /48 (a longer prefix, a host of the operator's) are not IPv4 clients.
    expect(clientKeyOf("64:ff9b:1:2::c633:6401")).toBe("64:ff9b:1:2::/64")
    expect(clientKeyOf("64:ff9b:1::1:198.51.100.1")).toBe("64:ff9b:1:0::/64")
  })

  it("keys every IPv4 part, written any way, as its number: the one-test shortcut for canonical forms agrees", () => {
    for (const part of ["0", "00", "000", "7", "07", "007", "10", "010", "99", "100", "199", "200", "249", "250", "255", "256", "260", "300", "999", "1000", "-1", "+1", " 1"]) {
      const value = Number(part)
      const expected = /^\d{1,3}$/.test(part) && value <= 255 ? `198.${value}.100.${value}` : undefined
      expect(clientKeyOf(`198.${part}.100.${part}`), part).toBe(expected)
    }
    expect(clientKeyOf("255.255.255.255")).toBe("255.255.255.255")
    expect(clientKeyOf("0.0.0.0")).toBe("0.0.0.0")
    expect(clientKeyOf("198.51.100.7\n")).toBe("198.51.100.7")
    expect(clientKeyOf("198.51.100.7.")).toBeUndefined()
  })

  it("refuses what is not an address", () => {
    for (const junk of ["", "unknown", "198.51.100.256", "1.2.3", "::g", "2001:db8::1/64", "a".repeat(100), "1.2.3.4:", "[::1]:", "1.2.3.4:80:80"]) expect(clientKeyOf(junk)).toBeUndefined()
  })

  it("reads only the configured header, and the entry its hops name", () => {
    const spoofed = { "x-forwarded-for": "10.9.9.9", "x-real-ip": "10.8.8.8", "cf-connecting-ip": "198.51.100.1" }
    expect(clientKeyOfRequest(request(spoofed), undefined)).toBeUndefined()
    expect(clientKeyOfRequest(request(spoofed), "cloudflare")).toBe("198.51.100.1")
    expect(clientKeyOfRequest(request({ "x-forwarded-for": "10.0.0.1, 198.51.100.2" }), "nginx")).toBe("198.51.100.2")
    expect(clientKeyOfRequest(request({ "x-forwarded-for": "10.0.0.1, 198.51.100.3, 192.0.2.1" }), { header: "x-forwarded-for", hops: 2 })).toBe("198.51.100.3")
    expect(clientKeyOfRequest(request({ "x-forwarded-for": "198.51.100.3" }), { header: "x-forwarded-for", hops: 2 })).toBeUndefined()
    expect(clientKeyOfRequest(request({ "fly-client-ip": "2001:db8::5" }), "fly")).toBe("2001:db8:0:0::/64")
    expect(clientKeyOfRequest(request({}), () => "203.0.113.4")).toBe("203.0.113.4")
  })
})
