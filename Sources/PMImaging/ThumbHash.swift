import Foundation
import Synchronization

/// ThumbHash, written from Evan Wallace's published algorithm (https://evanw.github.io/thumbhash/):
/// about 25 bytes that hold an image's average colour, aspect ratio, alpha and a few DCT
/// coefficients of its luminance and chroma, from which a blurred placeholder is painted before
/// the thumbnail loads. Chosen over BlurHash because it needs no component-count parameters,
/// carries alpha and the aspect ratio, and keeps more detail in fewer bytes.
public enum ThumbHash {
    /// The largest side the algorithm takes: more pixels cost time and add nothing.
    public static let maxSide = 100

    /// The hash of straight-alpha RGBA pixels (`width` × `height` ≤ 100 × 100), byte for byte
    /// what the reference implementation returns.
    public static func encode(width w: Int, height h: Int, rgba: [UInt8]) -> [UInt8] {
        precondition(w > 0 && h > 0 && w <= maxSide && h <= maxSide && rgba.count == w * h * 4)
        var avgR = 0.0, avgG = 0.0, avgB = 0.0, avgA = 0.0
        rgba.withUnsafeBufferPointer { rgba in
            for i in 0..<(w * h) {
                let alpha = Double(rgba[i * 4 + 3]) / 255
                avgR += alpha / 255 * Double(rgba[i * 4])
                avgG += alpha / 255 * Double(rgba[i * 4 + 1])
                avgB += alpha / 255 * Double(rgba[i * 4 + 2])
                avgA += alpha
            }
        }
        if avgA > 0 { avgR /= avgA; avgG /= avgA; avgB /= avgA }

        let hasAlpha = avgA < Double(w * h)
        let lLimit = hasAlpha ? 5.0 : 7.0  // fewer luminance terms leave room for alpha's
        let longest = Double(max(w, h))
        let lx = max(1, Int(round(lLimit * Double(w) / longest)))
        let ly = max(1, Int(round(lLimit * Double(h) / longest)))

        // LPQA, each pixel composited over the average colour: the four planes one after another.
        let n = w * h
        var planes = [Double](repeating: 0, count: 4 * n)
        planes.withUnsafeMutableBufferPointer { planes in
            rgba.withUnsafeBufferPointer { rgba in
                for i in 0..<n {
                    let alpha = Double(rgba[i * 4 + 3]) / 255
                    let r = avgR * (1 - alpha) + alpha / 255 * Double(rgba[i * 4])
                    let g = avgG * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 1])
                    let b = avgB * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 2])
                    planes[i] = (r + g + b) / 3
                    planes[n + i] = (r + g) / 2 - b
                    planes[2 * n + i] = r - g
                    planes[3 * n + i] = alpha
                }
            }
        }
        let (l, p, q, a) = (planes[0..<n], planes[n..<(2 * n)], planes[(2 * n)..<(3 * n)], planes[(3 * n)...])

        // Each cosine row once for all channels (the reference computes it again for every
        // term): the same values, so the sums are the reference's bit for bit.
        let most = hasAlpha ? 5 : 3
        precondition(max(most, lx, ly) <= CosineRows.terms)
        let cosines = Cosines(x: CosineRows.of(side: w), y: CosineRows.of(side: h))
        let lChannel = Channel(l, w, h, max(3, lx), max(3, ly), cosines)
        let pChannel = Channel(p, w, h, 3, 3, cosines)
        let qChannel = Channel(q, w, h, 3, 3, cosines)
        let aChannel = hasAlpha ? Channel(a, w, h, 5, 5, cosines) : nil

        let isLandscape = w > h
        let header24 = Int(round(63 * lChannel.dc)) | Int(round(31.5 + 31.5 * pChannel.dc)) << 6
            | Int(round(31.5 + 31.5 * qChannel.dc)) << 12 | Int(round(31 * lChannel.scale)) << 18 | (hasAlpha ? 1 << 23 : 0)
        let header16 = (isLandscape ? ly : lx) | Int(round(63 * pChannel.scale)) << 3
            | Int(round(63 * qChannel.scale)) << 9 | (isLandscape ? 1 << 15 : 0)
        var hash: [UInt8] = [UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8(header24 >> 16),
                             UInt8(header16 & 255), UInt8(header16 >> 8)]
        if let aChannel { hash.append(UInt8(Int(round(15 * aChannel.dc)) | Int(round(15 * aChannel.scale)) << 4)) }

        let start = hash.count
        var index = 0
        for channel in [lChannel, pChannel, qChannel] + (aChannel.map { [$0] } ?? []) {
            for f in channel.ac {
                let slot = start + index >> 1
                if slot == hash.count { hash.append(0) }
                hash[slot] |= UInt8(Int(round(15 * f)) << ((index & 1) << 2))
                index += 1
            }
        }
        return hash
    }

    /// JavaScript's `Math.round`, which the reference uses: halves go up. Every value rounded
    /// here is non-negative, where that is `(x + 0.5).rounded(.down)`.
    private static func round(_ value: Double) -> Double { (value + 0.5).rounded(.down) }

    /// The cosine rows of the terms, as the reference computes each: `x[cx * w + x]`, `y[cy * h + y]`.
    private struct Cosines {
        let x: [Double]
        let y: [Double]
    }

    /// Each side's cosine rows for every term a hash can have, made once per process: a sync
    /// encodes thousands of tiles of a few sizes, and `cos` was most of the rows' cost. The
    /// values are the reference's; a row of fewer terms is a prefix.
    private enum CosineRows {
        static let terms = 7
        private static let made = Mutex<[[Double]?]>(Array(repeating: nil, count: maxSide + 1))

        static func of(side: Int) -> [Double] {
            made.withLock { rows in
                if let found = rows[side] { return found }
                let computed = (0..<terms).flatMap { c in
                    (0..<side).map { x in cos(Double.pi / Double(side) * Double(c) * (Double(x) + 0.5)) }
                }
                rows[side] = computed
                return computed
            }
        }
    }

    /// One channel's DCT: its DC term and its AC terms normalized to 0…1 by their largest magnitude.
    private struct Channel {
        var dc = 0.0
        var ac: [Double] = []
        var scale = 0.0

        init(_ values: ArraySlice<Double>, _ w: Int, _ h: Int, _ nx: Int, _ ny: Int, _ cosines: Cosines) {
            var terms: [Double] = []
            values.withUnsafeBufferPointer { values in
                cosines.x.withUnsafeBufferPointer { fxs in
                    cosines.y.withUnsafeBufferPointer { fys in
                        for cy in 0..<ny {
                            var count = 0
                            while count * ny < nx * (ny - cy) { count += 1 }
                            let fy = UnsafeBufferPointer(rebasing: fys[(cy * h)..<((cy + 1) * h)])
                            var cx = 0
                            while cx < count {
                                Self.appendFourTerms(values, w: w, h: h, fxs: fxs, from: cx, below: count, fy: fy, to: &terms)
                                cx += 4
                            }
                        }
                    }
                }
            }
            dc = terms[0]
            ac = Array(terms.dropFirst())
            for f in ac { scale = max(scale, abs(f)) }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        }

        /// Appends terms `first` ..< `first` + 4 of one cosine row `fy`, those below `limit` (the
        /// lanes past it repeat the last term and are dropped). Each term is summed in the
        /// reference's order, so its rounding is met bit for bit; four at once because each sum
        /// waits on its previous addition, and four independent ones keep the floating-point
        /// adder busy.
        private static func appendFourTerms(_ values: UnsafeBufferPointer<Double>, w: Int, h: Int,
                                            fxs: UnsafeBufferPointer<Double>, from first: Int, below limit: Int,
                                            fy: UnsafeBufferPointer<Double>, to terms: inout [Double]) {
            func row(_ lane: Int) -> UnsafeBufferPointer<Double> {
                let cx = min(first + lane, limit - 1)
                return UnsafeBufferPointer(rebasing: fxs[(cx * w)..<((cx + 1) * w)])
            }
            let (fx0, fx1, fx2, fx3) = (row(0), row(1), row(2), row(3))
            var (f0, f1, f2, f3) = (0.0, 0.0, 0.0, 0.0)
            for y in 0..<h {
                let row = y * w, wave = fy[y]
                for x in 0..<w {
                    let value = values[row + x]
                    f0 += value * fx0[x] * wave
                    f1 += value * fx1[x] * wave
                    f2 += value * fx2[x] * wave
                    f3 += value * fx3[x] * wave
                }
            }
            let pixels = Double(w * h)
            terms.append(f0 / pixels)
            if first + 1 < limit { terms.append(f1 / pixels) }
            if first + 2 < limit { terms.append(f2 / pixels) }
            if first + 3 < limit { terms.append(f3 / pixels) }
        }
    }
}
