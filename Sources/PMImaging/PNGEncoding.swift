import CodecShim

enum PNGEncoding {
    /// Chosen by measurement on 40×40 thumbnails (see the report in the commit that set them).
    static let zlibLevel: Int32 = 6
    static let filters: Int32 = pm_png_filter_all

    static func encode(_ tile: PixelTile) throws(ImageError) -> [UInt8] {
        let message = CodecMessage()
        var buffer = pm_buffer()
        defer { pm_buffer_free(&buffer) }
        let status = tile.pixels.withUnsafeBufferPointer { pixels in
            pm_png_encode(pixels.baseAddress, Int32(tile.width), Int32(tile.height), Int32(tile.channels),
                          zlibLevel, filters, &buffer, message.pointer)
        }
        guard status == 0, let data = buffer.data else { throw message.error("PNG encode") }
        return Array(UnsafeBufferPointer(start: data, count: buffer.length))
    }
}
