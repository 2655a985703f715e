import Foundation

/// ETags. A content-addressed file's tag is its hash (an original's name is the SHA-256 of its
/// bytes; a thumbnail's is the original's hash plus its size), so it is the same on every
/// server and after a copy. Other files (pages, manifests) get size and modification time.
public enum EntityTag {
    public static func of(relativePath: String, size: Int, modifiedNanoseconds: Int) -> String {
        if let hash = contentHash(relativePath) { return "\"\(hash)\"" }
        return "\"\(String(size, radix: 16))-\(String(modifiedNanoseconds, radix: 16))\""
    }

    /// `originals/ab/<sha256>.jpg` → `<sha256>`; `thumbs/40x40/ab/<sha256>.png` → `<sha256>-40x40`.
    static func contentHash(_ relativePath: String) -> String? {
        let parts = relativePath.split(separator: "/")
        guard let name = parts.last, let dot = name.firstIndex(of: ".") else { return nil }
        let hash = name[..<dot]
        guard hash.count == 64, hash.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        switch (parts.first, parts.count) {
        case ("originals"?, 3): return String(hash)
        case ("thumbs"?, 4): return "\(hash)-\(parts[1])"
        default: return nil
        }
    }

    /// `If-Match` against our tag, by strong comparison (RFC 9110 §13.1.1): `*` (the file
    /// exists), or a listed tag equal to ours and not weak. Our tags are all strong.
    public static func matches(ifMatch header: String, tag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let candidate = candidate.trimmingCharacters(in: .whitespaces)
            return candidate == "*" || candidate == tag
        }
    }

    /// `If-None-Match` against our tag, by weak comparison (RFC 9110 §13.1.2): `*`, or any
    /// listed tag equal once `W/` is dropped.
    public static func matches(ifNoneMatch header: String?, tag: String) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { candidate in
            var candidate = candidate.trimmingCharacters(in: .whitespaces)
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            return candidate == tag.replacingOccurrences(of: "W/", with: "")
        }
    }
}
