import Foundation
import CCrypto

/// Hashes from OpenSSL's libcrypto: we never hand-roll a digest.
public enum Digest {
    /// Lower-case hex SHA-256 of `bytes`.
    public static func sha256Hex(_ bytes: some ContiguousBytes) -> String {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalizeHex()
    }

    /// The 16 bytes of MD5 of `bytes` (only for protocols that demand it, e.g. S3's Content-MD5).
    public static func md5(_ bytes: some ContiguousBytes) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &out, &length, EVP_md5(), nil)
        }
        precondition(ok == 1, "EVP_Digest(md5) failed: libcrypto is unusable")
        return Array(out.prefix(Int(length)))
    }

    /// Lower-case hex MD5 of `bytes` (only for protocols that demand it, e.g. Marvel API signing).
    public static func md5Hex(_ bytes: some ContiguousBytes) -> String {
        hex(md5(bytes))
    }

    public static func md5Hex(_ string: String) -> String { md5Hex(Array(string.utf8)) }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var chars: [UInt8] = []
        chars.reserveCapacity(64)
        for byte in bytes {
            chars.append(digits[Int(byte >> 4)])
            chars.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: chars, as: UTF8.self)
    }
}

/// Streaming SHA-256, so a download can be hashed while its bytes arrive.
public struct SHA256Hasher: ~Copyable {
    private let context: OpaquePointer

    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            preconditionFailure("EVP_DigestInit_ex(sha256) failed: libcrypto is unusable")
        }
        self.context = context
    }

    public mutating func update(_ bytes: some ContiguousBytes) {
        bytes.withUnsafeBytes { raw in
            _ = EVP_DigestUpdate(context, raw.baseAddress, raw.count)
        }
    }

    public mutating func update(_ raw: UnsafeRawBufferPointer) {
        _ = EVP_DigestUpdate(context, raw.baseAddress, raw.count)
    }

    public consuming func finalizeHex() -> String {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(context, &out, &length)
        return Digest.hex(out)
    }

    deinit { EVP_MD_CTX_free(context) }
}
