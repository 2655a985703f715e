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

        // The AC terms; saturation boosted 1.25× against quantization, as the reference does.
        let start = hasAlpha ? 6 : 5
        var index = 0
        var truncated = false
        func channel(_ nx: Int, _ ny: Int, _ scale: Double) -> [Double] {
            var ac: [Double] = []
            for cy in 0..<ny {
                var cx = cy > 0 ? 0 : 1
                while cx * ny < nx * (ny - cy) {
                    let slot = start + index >> 1
                    if slot >= hash.count { truncated = true; return ac }
                    let nibble = Int(hash[slot]) >> ((index & 1) << 2) & 15
                    ac.append((Double(nibble) / 7.5 - 1) * scale)
                    index += 1
                    cx += 1
                }
            }
            return ac
        }
        let lAC = channel(lx, ly, lScale)
        let pAC = channel(3, 3, pScale * 1.25)
        let qAC = channel(3, 3, qScale * 1.25)
        let aAC = hasAlpha ? channel(5, 5, aScale) : []
        guard !truncated else { return nil }

        // The reference's approximate aspect ratio: the header's term counts before the minimum of 3.
        let ratio = Double(isLandscape ? (hasAlpha ? 5 : 7) : header16 & 7) / Double(isLandscape ? header16 & 7 : (hasAlpha ? 5 : 7))
        let side = Double(max(1, longestSide))
        let w = Int((ratio > 1 ? side : side * ratio).rounded())
        let h = Int((ratio > 1 ? side / ratio : side).rounded())
        guard w > 0, h > 0 else { return nil }
        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        let terms = max(lx, ly, hasAlpha ? 5 : 3)
        // Every column's cosines once, not once per pixel: the same values, so the same pixels.
        let columns = (0..<w).flatMap { x in (0..<terms).map { cx in cos(Double.pi / Double(w) * (Double(x) + 0.5) * Double(cx)) } }
        var fy = [Double](repeating: 0, count: terms)
        for y in 0..<h {
            for cy in 0..<terms { fy[cy] = cos(Double.pi / Double(h) * (Double(y) + 0.5) * Double(cy)) }
            for x in 0..<w {
                let base = x * terms
                var l = lDC, p = pDC, q = qDC, a = aDC
                var j = 0
                for cy in 0..<ly {
                    var cx = cy > 0 ? 0 : 1
                    let fy2 = fy[cy] * 2
                    while cx * ly < lx * (ly - cy) { l += lAC[j] * columns[base + cx] * fy2; j += 1; cx += 1 }
                }
                j = 0
                for cy in 0..<3 {
                    let fy2 = fy[cy] * 2
                    for cx in (cy > 0 ? 0 : 1)..<(3 - cy) {
                        let f = columns[base + cx] * fy2
                        p += pAC[j] * f
                        q += qAC[j] * f
                        j += 1
                    }
                }
                if hasAlpha {
                    j = 0
                    for cy in 0..<5 {
                        let fy2 = fy[cy] * 2
                        for cx in (cy > 0 ? 0 : 1)..<(5 - cy) { a += aAC[j] * columns[base + cx] * fy2; j += 1 }
                    }
                }
                let b = l - 2 / 3 * p
                let r = (3 * l - b + q) / 2
                let g = r - q
                let i = (y * w + x) * 4
                func byte(_ value: Double) -> UInt8 { UInt8(max(0, 255 * min(1, value))) }
                (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]) = (byte(r), byte(g), byte(b), byte(a))
            }
        }
        return (w, h, rgba)
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
