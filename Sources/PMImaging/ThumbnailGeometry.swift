/// A region of an image in (fractional) pixel coordinates.
struct CropRect: Equatable, Sendable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
}

/// Pure size arithmetic for "fill" thumbnails: centre-crop to the target's aspect, then scale.
enum ThumbnailGeometry {
    /// The largest centred region of a width×height image with the target's aspect ratio.
    /// Fractional, so the crop stays exactly centred and mirrors/rotations of it coincide.
    static func centreCrop(width: Int, height: Int, targetWidth: Int, targetHeight: Int) -> CropRect {
        let w = Double(width), h = Double(height)
        if width * targetHeight > height * targetWidth {  // source is wider: trim left and right
            let cropWidth = h * Double(targetWidth) / Double(targetHeight)
            return CropRect(x: (w - cropWidth) / 2, y: 0, width: cropWidth, height: h)
        } else {  // source is taller (or same aspect): trim top and bottom
            let cropHeight = w * Double(targetHeight) / Double(targetWidth)
            return CropRect(x: 0, y: (h - cropHeight) / 2, width: w, height: cropHeight)
        }
    }

    /// libjpeg's output side at DCT scale n/8: ceil(side × n / 8).
    static func scaledSide(_ side: Int, eighths: Int) -> Int {
        (side * eighths + 7) / 8
    }

    /// The smallest DCT scale n/8 at which every target still fits inside its crop without
    /// upscaling. The crop has the target's aspect, so "crop ≥ target" is the same as "scaled
    /// width ≥ target width and scaled height ≥ target height". Images smaller than a target
    /// decode at full size (8/8) and get upscaled.
    static func jpegScaleEighths(width: Int, height: Int, targets: [(width: Int, height: Int)]) -> Int {
        for eighths in 1...7 {
            let scaledWidth = scaledSide(width, eighths: eighths)
            let scaledHeight = scaledSide(height, eighths: eighths)
            if targets.allSatisfy({ scaledWidth >= $0.width && scaledHeight >= $0.height }) {
                return eighths
            }
        }
        return 8
    }
}
