import CodecShim

enum PNGEncoding {
    // One filter (Paeth) for every row, compressed by libdeflate in one call (the shim): for
    // 40×40 thumbnails the LZ77 search of higher levels finds little more than level 1 does, and
    // adaptive filtering costs more than it saves.
    static let level: Int32 = 1
    static let filters: Int32 = pm_png_filter_paeth

    static func encode(_ tile: PixelTile) throws(ImageError) -> [UInt8] {
        let message = CodecMessage()
        var buffer = pm_buffer()
        defer { pm_buffer_free(&buffer) }
        let status = tile.pixels.withUnsafeBufferPointer { pixels in
            pm_png_encode(pixels.baseAddress, Int32(tile.width), Int32(tile.height), Int32(tile.channels),
                          level, filters, pm_zlib_strategy_default, &buffer, message.pointer)
        }
        guard status == 0, let data = buffer.data else { throw message.error("PNG encode") }
        return Array(UnsafeBufferPointer(start: data, count: buffer.length))
    }
}
