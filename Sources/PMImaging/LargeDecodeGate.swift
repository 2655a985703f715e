/// Bounds, in bytes, the memory that large whole-image decode buffers hold at once in the process.
///
/// Some decodes need a buffer the size of the whole image whatever the thumbnail's size: a
/// progressive (multi-scan) JPEG keeps libjpeg's coefficient buffer — 128 bytes per 8×8 block
/// of every component, ~8.4 MB for a 2048×1365 photo — and an interlaced PNG (Adam7 spreads
/// every row over seven passes) keeps all its pixels, 400 MB for RGBA at the 100-Mpx limit;
/// baseline JPEGs and other PNGs stream in a few rows. When every codec thread happened to hold
/// one at once, peak memory was the sum of them. Each such buffer takes its size from one budget
/// first, so those held at once add up to at most the budget, or to one buffer when it alone is
/// larger. The budget is under two 2048 px progressive JPEGs, so those still decode one at a
/// time; the other threads go on with everything else meanwhile.
enum LargeDecodeGate {
    /// Buffers at least this large take their share of the budget; smaller ones never wait.
    static let thresholdBytes = 4 << 20

    static let budget = ByteBudget(capacity: 16 << 20)

    /// Whether a buffer of `bytes` takes its share of the budget.
    static func takesShare(_ bytes: Int) -> Bool { bytes >= thresholdBytes }

    /// Runs `body`, which holds a whole-image buffer of `bytes`, within the budget.
    static func run<T, E: Error>(holding bytes: Int, _ body: () throws(E) -> T) throws(E) -> T {
        guard takesShare(bytes) else { return try body() }
        return try budget.withShare(of: bytes, body)
    }

    /// An upper bound: every component at full resolution (4:4:4), 64 two-byte coefficients a block.
    static func coefficientBytes(width: Int, height: Int, components: Int) -> Int {
        ((width + 7) / 8) * ((height + 7) / 8) * 128 * max(1, components)
    }
}
