import Foundation
import PMCache

/// The settings a command line gives, as a layer over the config files (`SettingsFiles`): only
/// the flags given are set. Flags a command doesn't define are simply absent.
extension CacheConfig {
    init(flags arguments: Arguments) throws(UsageError) {
        // `.syncMax` and `.pruneMax` are both `--max`.
        self.init(maxSize: arguments.byteSize(.syncMax), store: arguments.last(.store))
        let sizes = arguments.all(.size)
        if !sizes.isEmpty { self.sizes = sizes }
        if let text = arguments.last(.scales) {
            let factors = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !factors.isEmpty, factors.allSatisfy({ ($0 ?? 0) >= 1 }) else {
                throw UsageError("--scales must be whole numbers from 1 like 1,2,3, not \"\(text)\"")
            }
            scales = factors.compactMap { $0 }
        }
        jobs = arguments.int(.jobs)
        perHost = arguments.int(.perHost)
        rate = arguments.number(.rate)
        userAgent = arguments.last(.userAgent)
        maxAge = arguments.duration(.maxAge)
        format = arguments.last(.format)
        quality = arguments.int(.quality)
        fit = arguments.last(.fit)
        minBytes = arguments.byteSize(.minBytes)
        minPixels = arguments.pixelSize(.minPixels)
    }
}
