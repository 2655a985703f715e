import CodecShim

enum PNGEncoding {
    // Measured with callgrind on 150 real 40×40 RGB thumbnails (instructions per encode, mean size):
    //   all filters + zlib 6 (libpng default) 1.44 M, 3066 B;  Paeth + zlib 6 1.11 M, 3076 B;
    //   Paeth + Z_RLE 0.72 M, 3099 B;  Paeth + Z_HUFFMAN_ONLY 0.66 M, 3127 B;  no filter 0.80 M, 4276 B.
    // For 40×40 images the LZ77 match search finds little that run-length coding does not.
    // Single-filter PNGs are now compressed by libdeflate (the shim), whose level 1 takes less
    // time than zlib's Z_RLE and keeps within 2 % of its bytes; higher levels cost more time
    // for no fewer bytes on these images.
    static let level: Int32 = 1
    static let filters: Int32 = pm_png_filter_paeth
    /// Used only by libpng's adaptive path, which these single-filter PNGs never take.
    static let strategy: Int32 = pm_zlib_strategy_rle

    static func encode(_ tile: PixelTile) throws(ImageError) -> [UInt8] {
        let message = CodecMessage()
        var buffer = pm_buffer()
        defer { pm_buffer_free(&buffer) }
        let status = tile.pixels.withUnsafeBufferPointer { pixels in
            pm_png_encode(pixels.baseAddress, Int32(tile.width), Int32(tile.height), Int32(tile.channels),
                          level, filters, strategy, &buffer, message.pointer)
        }
        guard status == 0, let data = buffer.data else { throw message.error("PNG encode") }
        return Array(UnsafeBufferPointer(start: data, count: buffer.length))
    }
}
