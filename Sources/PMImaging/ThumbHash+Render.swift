import Foundation

extension ThumbHash {
    /// The placeholder a hash describes: straight-alpha RGBA pixels, `longestSide` on the longer
    /// side of the hash's aspect ratio, as the reference decoder paints them (it uses 32). Nil
    /// for bytes that are not a hash.
    public static func render(_ hash: [UInt8], longestSide: Int = 32) -> (width: Int, height: Int, rgba: [UInt8])? {
        guard hash.count >= 5 else { return nil }
        let header24 = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16
        let header16 = Int(hash[3]) | Int(hash[4]) << 8
        let lDC = Double(header24 & 63) / 63
        let pDC = Double((header24 >> 6) & 63) / 31.5 - 1
        let qDC = Double((header24 >> 12) & 63) / 31.5 - 1
        let lScale = Double((header24 >> 18) & 31) / 31
        let hasAlpha = header24 >> 23 != 0
        let pScale = Double((header16 >> 3) & 63) / 63
        let qScale = Double((header16 >> 9) & 63) / 63
        let isLandscape = header16 >> 15 != 0
        let lx = max(3, isLandscape ? (hasAlpha ? 5 : 7) : header16 & 7)
        let ly = max(3, isLandscape ? header16 & 7 : (hasAlpha ? 5 : 7))
        guard !hasAlpha || hash.count >= 6 else { return nil }
        let aDC = hasAlpha ? Double(hash[5] & 15) / 15 : 1
        let aScale = hasAlpha ? Double(hash[5] >> 4) / 15 : 0

        // The AC terms of the four channels, one after the other in `ac`; saturation boosted
        // 1.25× against quantization, as the reference does.
        var ac: [Double] = []
        ac.reserveCapacity(64)
        var nibbles = NibbleReader(hash: hash, start: hasAlpha ? 6 : 5)
        guard nibbles.read(nx: lx, ny: ly, scale: lScale, into: &ac) else { return nil }
        let pStart = ac.count
        guard nibbles.read(nx: 3, ny: 3, scale: pScale * 1.25, into: &ac) else { return nil }
        let qStart = ac.count
        guard nibbles.read(nx: 3, ny: 3, scale: qScale * 1.25, into: &ac) else { return nil }
        let aStart = ac.count
        guard !hasAlpha || nibbles.read(nx: 5, ny: 5, scale: aScale, into: &ac) else { return nil }

        // The reference's approximate aspect ratio: the header's term counts before the minimum of 3.
        let ratio = Double(isLandscape ? (hasAlpha ? 5 : 7) : header16 & 7) / Double(isLandscape ? header16 & 7 : (hasAlpha ? 5 : 7))
        let side = Double(max(1, longestSide))
        let w = Int((ratio > 1 ? side : side * ratio).rounded())
        let h = Int((ratio > 1 ? side / ratio : side).rounded())
        guard w > 0, h > 0 else { return nil }
        let terms = max(lx, ly, hasAlpha ? 5 : 3)
        // Each cosine from a table made once per process, by the same expression as before the
        // tables were kept: the same values, so the same pixels.
        let columns = RenderCosines.table(side: w, terms: terms), rows = RenderCosines.table(side: h, terms: terms)
        let columnStride = columns.count / w, rowStride = rows.count / h
        let rgba = [UInt8](unsafeUninitializedCapacity: w * h * 4) { out, initialized in
            ac.withUnsafeBufferPointer { ac in
                columns.withUnsafeBufferPointer { columns in rows.withUnsafeBufferPointer { rows in
                    for y in 0..<h {
                        let fy = rows.baseAddress! + y * rowStride
                        for x in 0..<w {
                            let base = x * columnStride
                            var l = lDC, p = pDC, q = qDC, a = aDC
                            var j = 0
                            for cy in 0..<ly {
                                var cx = cy > 0 ? 0 : 1
                                let fy2 = fy[cy] * 2
                                while cx * ly < lx * (ly - cy) { l += ac[j] * columns[base + cx] * fy2; j += 1; cx += 1 }
                            }
                            j = 0
                            for cy in 0..<3 {
                                let fy2 = fy[cy] * 2
                                for cx in (cy > 0 ? 0 : 1)..<(3 - cy) {
                                    let f = columns[base + cx] * fy2
                                    p += ac[pStart + j] * f
                                    q += ac[qStart + j] * f
                                    j += 1
                                }
                            }
                            if hasAlpha {
                                j = 0
                                for cy in 0..<5 {
                                    let fy2 = fy[cy] * 2
                                    for cx in (cy > 0 ? 0 : 1)..<(5 - cy) { a += ac[aStart + j] * columns[base + cx] * fy2; j += 1 }
                                }
                            }
                            let b = l - 2 / 3 * p
                            let r = (3 * l - b + q) / 2
                            let g = r - q
                            let i = (y * w + x) * 4
                            out[i] = pixelByte(r); out[i + 1] = pixelByte(g); out[i + 2] = pixelByte(b); out[i + 3] = pixelByte(a)
                        }
                    }
                } }
            }
            initialized = w * h * 4
        }
        return (w, h, rgba)
    }

    /// cos(π/side·(i+½)·k) for i < side and k < terms, i-major: the gallery renders a placeholder
    /// per item, each of the same few sizes, and the cosines were half of a render's time.
    /// (The encoder's `CosineRows` multiply in another order, whose last bits may differ.)
    private enum RenderCosines {
        /// Tables are kept for sides up to this (the gallery's placeholders are 8 px) and this
        /// many terms (the most a hash has); larger ones are computed per render.
        private static let keptSides = 32, keptTerms = 7
        private static let kept: [[Double]] = (0...keptSides).map { compute(side: $0, terms: keptTerms) }

        /// At least `terms` cosines for each i, the same number for each (count / side).
        static func table(side: Int, terms: Int) -> [Double] {
            side <= keptSides && terms <= keptTerms ? kept[side] : compute(side: side, terms: terms)
        }

        private static func compute(side: Int, terms: Int) -> [Double] {
            var table = [Double](repeating: 0, count: side * terms)
            for i in 0..<side {
                for k in 0..<terms { table[i * terms + k] = cos(Double.pi / Double(side) * (Double(i) + 0.5) * Double(k)) }
            }
            return table
        }
    }

    @inline(__always) private static func pixelByte(_ value: Double) -> UInt8 { UInt8(max(0, 255 * min(1, value))) }

    /// A hash's AC terms, read a nibble at a time in the order the encoder wrote them.
    private struct NibbleReader {
        let hash: [UInt8]
        let start: Int
        var index = 0

        /// Appends the terms of an `nx`×`ny` channel (the triangle the encoder keeps, DC left
        /// out) to `terms`; false when the hash ends first.
        mutating func read(nx: Int, ny: Int, scale: Double, into terms: inout [Double]) -> Bool {
            for cy in 0..<ny {
                var cx = cy > 0 ? 0 : 1
                while cx * ny < nx * (ny - cy) {
                    let slot = start + index >> 1
                    guard slot < hash.count else { return false }
                    let nibble = Int(hash[slot]) >> ((index & 1) << 2) & 15
                    terms.append((Double(nibble) / 7.5 - 1) * scale)
                    index += 1
                    cx += 1
                }
            }
            return true
        }
    }
}

extension ThumbHash {
    /// The hash of a thumbnail tile; one larger than 100 px is first area-averaged (premultiplied)
    /// to fit, as the algorithm wants.
    static func encode(_ tile: PixelTile) -> [UInt8] {
        let factor = (max(tile.width, tile.height) + maxSide - 1) / maxSide
        // The thumbnailer's tiles fit already: their pixels as they are (the average of one
        // pixel), the colour of a clear one zero as below.
        if factor == 1 { return encode(width: tile.width, height: tile.height, rgba: straightRGBA(tile)) }
        let w = (tile.width + factor - 1) / factor, h = (tile.height + factor - 1) / factor
        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                var r = 0, g = 0, b = 0, a = 0, count = 0
                for sy in (y * factor)..<min(tile.height, (y + 1) * factor) {
                    for sx in (x * factor)..<min(tile.width, (x + 1) * factor) {
                        let s = (sy * tile.width + sx) * tile.channels
                        let alpha = tile.channels == 4 ? Int(tile.pixels[s + 3]) : 255
                        r += Int(tile.pixels[s]) * alpha
                        g += Int(tile.pixels[s + 1]) * alpha
                        b += Int(tile.pixels[s + 2]) * alpha
                        a += alpha
                        count += 1
                    }
                }
                let i = (y * w + x) * 4
                if a > 0 {
                    rgba[i] = UInt8((r + a / 2) / a)
                    rgba[i + 1] = UInt8((g + a / 2) / a)
                    rgba[i + 2] = UInt8((b + a / 2) / a)
                }
                rgba[i + 3] = UInt8((a + count / 2) / count)
            }
        }
        return encode(width: w, height: h, rgba: rgba)
    }

    private static func straightRGBA(_ tile: PixelTile) -> [UInt8] {
        var rgba = [UInt8](repeating: 0, count: tile.width * tile.height * 4)
        tile.pixels.withUnsafeBufferPointer { source in
            rgba.withUnsafeMutableBufferPointer { target in
                for i in 0..<(tile.width * tile.height) {
                    let s = i * tile.channels, t = i * 4
                    let alpha = tile.channels == 4 ? source[s + 3] : 255
                    target[t + 3] = alpha
                    guard alpha > 0 else { continue }
                    target[t] = source[s]
                    target[t + 1] = source[s + 1]
                    target[t + 2] = source[s + 2]
                }
            }
        }
        return rgba
    }
}
