/// A decoder's thumbnail pixels, one tile per size, and what it said of a damaged file it still
/// made them from (the rows that decoded, a checksum it ignored), as the decoder worded it.
struct Tiles: Sendable {
    var tiles: [PixelTile]
    var warning: String?
    /// The whole image fitted into `ThumbHash.maxSide`, upright, for its placeholder; made from
    /// the same decoded pixels as the tiles.
    var placeholder: PixelTile?
}
