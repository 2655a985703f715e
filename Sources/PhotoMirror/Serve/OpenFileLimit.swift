import Glibc

/// The process's open-file limit (RLIMIT_NOFILE), which bounds how many connections a server
/// can hold. Many systems start processes with a soft limit of 1024 under a far higher hard
/// limit that any process may raise itself to.
public enum OpenFileLimit {
    /// Raises the soft limit towards `wanted`, never past the hard limit nor lowering it;
    /// returns the soft limit in force afterwards.
    public static func raise(to wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return wanted }
        let goal = min(rlim_t(clamping: wanted), limit.rlim_max)
        if goal > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = goal
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
}
