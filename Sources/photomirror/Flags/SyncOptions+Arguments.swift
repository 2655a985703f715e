import Foundation
import PhotoMirror

/// The sync options a command line sets: shared by `sync`, `watch` and (its loading part) `feed`.
extension SyncOptions {
    init(_ arguments: Arguments) throws(UsageError) {
        self.init()
        loading = LoadingOptions(arguments)
        imaging = ImagingOptions(arguments)
        cache.lockWait = arguments.seconds(.wait) ?? cache.lockWait
        cache.maxSize = arguments.byteSize(.syncMax)
        cache.garbageGrace = arguments.duration(.garbageGrace) ?? cache.garbageGrace
    }
}

extension LoadingOptions {
    /// Flags a command doesn't define are simply absent, so `feed` reads its subset here too.
    init(_ arguments: Arguments) {
        self.init()
        jobs = arguments.int(.jobs) ?? jobs
        perHost = arguments.int(.perHost) ?? perHost
        rate = arguments.number(.rate) ?? rate
        timeout = arguments.seconds(.timeout) ?? timeout
        stallTimeout = min(stallTimeout, timeout)
        retry.attempts = arguments.int(.retries).map { $0 + 1 } ?? retry.attempts
        maxBytes = arguments.int(.maxBytes) ?? maxBytes
        maxFeedBytes = arguments.byteSize(.maxFeedBytes) ?? maxFeedBytes
        maxPages = arguments.int(.pages) ?? maxPages
        maxItems = arguments.int(.maxItems) ?? maxItems
        selection = ItemSelection(newest: arguments.int(.maxItems), since: arguments.since(.since))
        maxImagesPerItem = arguments.int(.maxImagesPerItem) ?? maxImagesPerItem
        minBytes = arguments.byteSize(.minBytes)
        minPixels = arguments.pixelSize(.minPixels)
        revalidateMedia = arguments.has(.revalidate)
        allowPrivateAddresses = arguments.has(.allowPrivateAddresses)
        refetchEvicted = arguments.has(.refetchEvicted)
        userAgent = arguments.last(.userAgent)
        marvelKeys = Self.marvelKeys(ProcessInfo.processInfo.environment)
    }

    /// Both keys, or no signing.
    static func marvelKeys(_ environment: [String: String]) -> MarvelKeys? {
        guard let publicKey = environment["MARVEL_PUBLIC_KEY"], let privateKey = environment["MARVEL_PRIVATE_KEY"],
              !publicKey.isEmpty, !privateKey.isEmpty else { return nil }
        return MarvelKeys(publicKey: publicKey, privateKey: privateKey)
    }
}

extension ImagingOptions {
    /// The sizes and scales are settings (`EffectiveSettings`), applied once the config files are read.
    init(_ arguments: Arguments) {
        self.init()
        maxPixels = arguments.int(.maxPixels) ?? maxPixels
    }
}
