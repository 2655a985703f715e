import CodecShim

/// Keeps a long run of decodes from holding on to memory it no longer uses (glibc malloc).
///
/// A sync's phases allocate on different threads, so in different glibc arenas: the feed parse
/// on a cooperative thread, decoding on the codec pool's threads, publishing on a cooperative
/// thread again; and a thread that finds its arena locked moves to another. An arena keeps
/// what it freed resident, so every arena ends up holding the largest buffer any decode put in
/// it — libjpeg's whole-image coefficient buffer for a progressive JPEG, ~9 MB at 2048 px even
/// at 1/8 scale — and the phases' peaks add up instead of the largest one counting.
public enum FreedMemory {
    /// Buffers this large get their own mapping, returned when freed: libjpeg's coefficient
    /// buffers of large progressive JPEGs (megabytes) and the largest bodies. Below it, the
    /// ~400 KB buffer of a 500 px photo is reused from the heap: mapped afresh for each decode,
    /// its pages fault in again every time, which costs a sync a tenth of its CPU.
    public static let mappedAllocationBytes = 512 << 10

    /// Call once before decoding starts.
    public static func mapLargeAllocations() {
        pm_map_allocations_above(mappedAllocationBytes)
    }

    /// Makes threads that start allocating from now on share `count` arenas instead of taking
    /// one each (up to eight per core): each arena keeps what it freed resident. For a run of
    /// short-lived threads that each allocate a little (a prune's walk and unlink lanes), not
    /// for the codec threads, which would wait on each other.
    public static func limitArenas(to count: Int) {
        pm_limit_arenas(Int32(count))
    }

    /// Returns freed memory to the system; a few milliseconds. Call between phases.
    public static func release() {
        pm_release_freed_memory()
    }
}
