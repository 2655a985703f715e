/// EXIF Orientation (tag 0x0112): the transform that turns the stored pixels upright.
enum ExifOrientation: Int, Sendable, CaseIterable {
    case identity = 1
    case mirrorHorizontal = 2
    case rotate180 = 3
    case mirrorVertical = 4
    case transpose = 5
    case rotate90Clockwise = 6
    case transverse = 7
    case rotate90CounterClockwise = 8

    /// True when the displayed image is the stored one with width and height exchanged.
    var swapsAxes: Bool { rawValue >= 5 }

    /// The stored pixel shown at displayed position (x, y), for a stored image of the given size.
    func storedPosition(x: Int, y: Int, storedWidth w: Int, storedHeight h: Int) -> (x: Int, y: Int) {
        switch self {
        case .identity: (x, y)
        case .mirrorHorizontal: (w - 1 - x, y)
        case .rotate180: (w - 1 - x, h - 1 - y)
        case .mirrorVertical: (x, h - 1 - y)
        case .transpose: (y, x)
        case .rotate90Clockwise: (y, h - 1 - x)
        case .transverse: (w - 1 - y, h - 1 - x)
        case .rotate90CounterClockwise: (w - 1 - y, x)
        }
    }

    /// The upright version of `tile`. Thumbnails are oriented after scaling, so this only ever
    /// touches a few thousand pixels.
    func apply(to tile: PixelTile) -> PixelTile {
        guard self != .identity else { return tile }
        let width = swapsAxes ? tile.height : tile.width
        let height = swapsAxes ? tile.width : tile.height
        let channels = tile.channels
        var pixels = [UInt8](repeating: 0, count: tile.pixels.count)
        tile.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    for x in 0..<width {
                        let from = storedPosition(x: x, y: y, storedWidth: tile.width, storedHeight: tile.height)
                        let s = (from.y * tile.width + from.x) * channels
                        let t = (y * width + x) * channels
                        for c in 0..<channels { target[t + c] = source[s + c] }
                    }
                }
            }
        }
        return PixelTile(pixels: pixels, width: width, height: height, channels: channels)
    }
}
