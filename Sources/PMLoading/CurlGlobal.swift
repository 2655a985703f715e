import CurlShim

/// Process-wide libcurl setup. `curl_global_init` must run before other threads use curl,
/// so `main` should call `initialize()` first; `CurlLoader` also calls it as a safety net.
public enum CurlGlobal {
    /// A lazily initialised static runs exactly once, even under concurrent first calls.
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    public static func initialize() {
        precondition(initialized, "curl_global_init failed")
    }
}
