import Synchronization

/// Lets one large progressive JPEG decode at a time in the process.
///
/// A progressive (multi-scan) JPEG needs libjpeg's whole-image coefficient buffer — 128 bytes
/// per 8×8 block of every component, ~8.4 MB for a 2048×1365 photo — whatever the output
/// scale, while a baseline one streams in a few rows. When every codec thread happened to hold
/// one at once, a sync's peak memory rose with the number of images it had seen (the rarer the
/// coincidence, the longer the feed needed to hit it). Serialising just these decodes caps it at
/// one buffer; at most every fifth photo is progressive, so the other threads rarely wait.
enum LargeDecodeGate {
    /// Coefficient buffers at least this large take the gate.
    static let thresholdBytes = 4 << 20

    private static let gate = Mutex(())

    /// Runs `body` under the gate when the image is progressive and its buffer would be large.
    static func run<T>(progressive: Bool, width: Int, height: Int, components: Int, _ body: () -> T) -> T {
        guard progressive, coefficientBytes(width: width, height: height, components: components) >= thresholdBytes
        else { return body() }
        return gate.withLock { _ in body() }
    }

    /// An upper bound: every component at full resolution (4:4:4), 64 two-byte coefficients a block.
    static func coefficientBytes(width: Int, height: Int, components: Int) -> Int {
        ((width + 7) / 8) * ((height + 7) / 8) * 128 * max(1, components)
    }
}
