import Foundation

/// The kind of network an IP address is in, for the rule against server-side request forgery: a
/// feed at a public address may not lead the mirror to addresses of the operator's own
/// networks (`AddressRule`).
public enum AddressZone: String, Sendable, Equatable {
    case `public`
    /// 127.0.0.0/8, ::1.
    case loopback
    /// RFC 1918 (10/8, 172.16/12, 192.168/16), CGNAT's 100.64/10, IPv6 unique-local fc00::/7
    /// and the deprecated site-local fec0::/10.
    case `private`
    /// 169.254/16 (where clouds answer metadata requests, 169.254.169.254), fe80::/10.
    case linkLocal = "link-local"
    /// 0.0.0.0/8 and ::, which reach the local host on Linux.
    case unspecified
    /// Multicast, broadcast and the blocks IANA reserves (240/4, 192.0.0/24, benchmarking
    /// 198.18/15): never a photo host.
    case reserved

    /// The zone of an address: 4 bytes (IPv4) or 16 (IPv6); IPv4-mapped (::ffff:a.b.c.d) and
    /// NAT64 (64:ff9b::a.b.c.d) IPv6 addresses are classed by the IPv4 address they carry.
    public static func of(bytes: [UInt8]) -> AddressZone {
        switch bytes.count {
        case 4: return ofIPv4(bytes[0], bytes[1], bytes[2], bytes[3])
        case 16: return ofIPv6(bytes)
        default: return .reserved
        }
    }

    /// The zone of an address written as text (dotted IPv4 or IPv6), nil for anything else.
    public static func of(_ text: String) -> AddressZone? {
        IPAddressText.bytes(text).map { of(bytes: $0) }
    }

    private static func ofIPv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> AddressZone {
        switch (a, b) {
        case (0, _): return .unspecified
        case (127, _): return .loopback
        case (10, _), (172, 16...31), (192, 168), (100, 64...127): return .private
        case (169, 254): return .linkLocal
        case (192, 0) where c == 0, (198, 18...19), (224...255, _): return .reserved
        default: return .public
        }
    }

    private static func ofIPv6(_ bytes: [UInt8]) -> AddressZone {
        let mapped: [UInt8] = Array(repeating: 0, count: 10) + [0xff, 0xff]
        let nat64: [UInt8] = [0x00, 0x64, 0xff, 0x9b] + Array(repeating: 0, count: 8)
        if bytes.prefix(12).elementsEqual(mapped) || bytes.prefix(12).elementsEqual(nat64) {
            return ofIPv4(bytes[12], bytes[13], bytes[14], bytes[15])
        }
        if bytes.prefix(15).allSatisfy({ $0 == 0 }) {
            return bytes[15] == 1 ? .loopback : bytes[15] == 0 ? .unspecified : .reserved
        }
        switch bytes[0] {
        case 0xfc, 0xfd: return .private
        case 0xfe where bytes[1] & 0xc0 == 0x80: return .linkLocal
        case 0xfe where bytes[1] & 0xc0 == 0xc0: return .private
        case 0xff: return .reserved
        default: return .public
        }
    }
}

/// IP addresses as text and bytes (inet_pton / inet_ntop).
enum IPAddressText {
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    static func text(_ bytes: [UInt8]) -> String {
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        var buffer = [UInt8](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { address in
            buffer.withUnsafeMutableBufferPointer { out in
                out.withMemoryRebound(to: CChar.self) { inet_ntop(family, address.baseAddress, $0.baseAddress, socklen_t($0.count)) }
            }
        }
        return written == nil ? "?" : String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
    }
}
