extension PhotoIndex {
    /// The bytes of every file the index names, each rounded up to whole 4 KiB blocks: about
    /// what they use on disk, from two sums and no walk of the folders. A sync with a size limit
    /// starts from it and adds what it stores, and measures for real only once that estimate
    /// goes over the limit.
    public func storedFilesEstimate() throws(IndexError) -> Int {
        var total = 0
        for table in ["originals", "thumbnails"] {
            let query = try connection.statement("SELECT total(((bytes + 4095) / 4096) * 4096) FROM \(table)")
            while try query.step() { total += query.int(0) }
        }
        return total
    }

    /// Disk use of `bytes` of file content in whole 4 KiB blocks, as `storedFilesEstimate` counts it.
    public static func blockRounded(_ bytes: Int) -> Int {
        (bytes + 4095) / 4096 * 4096
    }
}
