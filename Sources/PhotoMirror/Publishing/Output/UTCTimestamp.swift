import Glibc

/// RFC 3339 UTC timestamps (`2026-11-29T13:00:00Z`) for manifests, pages and reports.
/// Formatted by hand from `gmtime_r`: Foundation's ISO 8601 style costs microseconds per call,
/// and a republish formats two per item.
public enum W3CTimestamp {
    public static func format(_ seconds: Double) -> String {
        var bytes: [UInt8] = []
        append(seconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whole seconds, rounded down (a time before 1970 too). Out-of-range values clamp to the
    /// years 0001–9999, as no calendar date outside them can be written in this form.
    static func append(_ seconds: Double, to bytes: inout [UInt8]) {
        let clamped = seconds.isFinite ? min(max(seconds, -62_135_596_800), 253_402_300_799) : 0
        var time = time_t(clamped.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        // Formatted on the stack and appended once: a republish writes several per item.
        var text: (UInt64, UInt64, UInt32) = (0, 0, 0)
        withUnsafeMutableBytes(of: &text) { buffer in
            func put(_ value: Int, width: Int, at offset: Int) {
                var value = value
                for index in (offset..<(offset + width)).reversed() {
                    buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(Int(parts.tm_year) + 1900, width: 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(Int(parts.tm_mon) + 1, width: 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(Int(parts.tm_mday), width: 2, at: 8)
            buffer[10] = UInt8(ascii: "T")
            put(Int(parts.tm_hour), width: 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(Int(parts.tm_min), width: 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(Int(parts.tm_sec), width: 2, at: 17)
            buffer[19] = UInt8(ascii: "Z")
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<20]))
        }
    }
}
