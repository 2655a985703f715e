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

extension ThumbnailGeometry {
    /// For decoders that scale to any size (WebP's rescaler): the smallest width×height with the
    /// image's aspect at which every target still fits inside its crop, the rule of
    /// `jpegScaleEighths` without its 1/8 steps. The factor is the largest target-to-image side
    /// ratio, kept as a fraction so the side that sets it comes out exactly at the target. Never
    /// larger than the image: smaller images decode at full size and get upscaled.
    static func coveringSize(width: Int, height: Int, targets: [(width: Int, height: Int)]) -> (width: Int, height: Int) {
        guard width > 0, height > 0 else { return (width, height) }
        var numerator = 0, denominator = 1
        for target in targets {
            // Compare target.width / width and target.height / height with the best so far by
            // cross-multiplying: no rounding before the sides are computed.
            if target.width * denominator > numerator * width { (numerator, denominator) = (target.width, width) }
            if target.height * denominator > numerator * height { (numerator, denominator) = (target.height, height) }
        }
        guard numerator > 0, numerator < denominator else { return (width, height) }
        let scale = { (side: Int) in (side * numerator + denominator - 1) / denominator }
        return (scale(width), scale(height))
    }
}

/// One thumbnail as the decoder sees it: in stored orientation, where a rotated target has its
/// sides exchanged, and the crop of the stored image it averages.
struct StoredTarget: Equatable, Sendable {
    var width: Int
    var height: Int
    var crop: CropRect
}

extension ThumbnailGeometry {
    /// Cover: the box (sides exchanged for a rotated image) and the centred crop of its aspect.
    /// Contain: the whole image, scaled to the largest size of its own aspect inside the box;
    /// the thumbnailer letterboxes that into the box afterwards.
    static func storedTarget(_ size: ThumbnailSize, orientation: ExifOrientation,
                             imageWidth: Int, imageHeight: Int) -> StoredTarget {
        let swaps = orientation.swapsAxes
        let width = swaps ? size.height : size.width
        let height = swaps ? size.width : size.height
        if size.fit == .contain {
            let inside = containedSize(width: imageWidth, height: imageHeight, boxWidth: width, boxHeight: height)
            let whole = CropRect(x: 0, y: 0, width: Double(imageWidth), height: Double(imageHeight))
            return StoredTarget(width: inside.width, height: inside.height, crop: whole)
        }
        let crop = centreCrop(width: imageWidth, height: imageHeight, targetWidth: width, targetHeight: height)
        return StoredTarget(width: width, height: height, crop: crop)
    }

    /// The largest width×height with the image's aspect (rounded, at least 1) inside the box:
    /// the side that limits it is the box's exactly.
    static func containedSize(width: Int, height: Int, boxWidth: Int, boxHeight: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0 else { return (boxWidth, boxHeight) }
        if width * boxHeight >= height * boxWidth {  // wider than the box: full width
            return (boxWidth, max(1, min(boxHeight, (2 * height * boxWidth + width) / (2 * width))))
        } else {
            return (max(1, min(boxWidth, (2 * width * boxHeight + height) / (2 * height))), boxHeight)
        }
    }

    /// The sides a decoder must cover for each size: the stored targets' sides.
    static func decodeTargets(_ sizes: [ThumbnailSize], orientation: ExifOrientation,
                              imageWidth: Int, imageHeight: Int) -> [(width: Int, height: Int)] {
        sizes.map { size in
            let target = storedTarget(size, orientation: orientation, imageWidth: imageWidth, imageHeight: imageHeight)
            return (target.width, target.height)
        }
    }
}

extension ThumbnailGeometry {
    /// The longest side of the placeholder's pixels. The algorithm takes up to
    /// `ThumbHash.maxSide` (100), but its at most 7 cosine terms a side are as well sampled by 24
    /// area-averaged pixels, and its time goes with the pixels: 1.8 M instructions an encode at
    /// 63×47 (a 500 px JPEG decoded at 1/8), 0.5 M at 32×24, 0.3 M at 24×18.
    static let placeholderSide = 24

    /// The placeholder's pixels (`ThumbHash`): the whole image, not a crop, scaled to fit
    /// `placeholderSide` on its longer side and never enlarged, in stored orientation (fitting a
    /// square does not care which side is which).
    static func placeholderTarget(imageWidth: Int, imageHeight: Int) -> StoredTarget {
        let longest = max(1, imageWidth, imageHeight)
        let side = min(longest, placeholderSide)
        let width = max(1, (imageWidth * side + longest / 2) / longest)
        let height = max(1, (imageHeight * side + longest / 2) / longest)
        return StoredTarget(width: width, height: height,
                            crop: CropRect(x: 0, y: 0, width: Double(imageWidth), height: Double(imageHeight)))
    }
}
