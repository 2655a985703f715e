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
        pad(Int(parts.tm_year) + 1900, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        pad(Int(parts.tm_mon) + 1, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        pad(Int(parts.tm_mday), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        pad(Int(parts.tm_hour), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        pad(Int(parts.tm_min), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        pad(Int(parts.tm_sec), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    private static func pad(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8((value / divisor) % 10))
            divisor /= 10
        }
    }
}
