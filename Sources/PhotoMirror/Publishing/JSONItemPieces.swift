/// A JSON document whose last member is its `items` array, handed out in pieces of about
/// `ManifestWriter.pieceBytes` as the items are written: the manifest and the JSON Feed of a
/// 100 000-item feed are never one buffer. `json` holds the head until the first item.
struct JSONItemPieces {
    var json = JSONBuffer(capacity: ManifestWriter.pieceBytes + 16 << 10)
    private var items = 0

    /// Writes one item object (`write` adds its members); returns a piece to store when one is full.
    mutating func add(_ write: (inout JSONBuffer) -> Void) -> [UInt8]? {
        json.raw(items == 0 ? "{" : ", {")
        items += 1
        write(&json)
        json.raw("\n  }")
        guard json.bytes.count >= ManifestWriter.pieceBytes else { return nil }
        defer { json.removeAll() }
        return json.bytes
    }

    /// The last piece: the array and the document closed.
    mutating func finish() -> [UInt8] {
        json.raw("]\n}\n")
        defer { json.removeAll() }
        return json.bytes
    }
}
