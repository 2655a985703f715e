import PMCache
import PMImaging
import Testing
@testable import PhotoMirror

/// Flag > cache config > user config > built-in, key by key.
@Suite struct EffectiveSettingsTests {
    let cacheFile = SettingSource.cache(file: "/c/config.json")
    let userFile = SettingSource.user(file: "/home/u/.config/photomirror/config.json")

    func layers(flags: CacheConfig = CacheConfig(), cache: CacheConfig = CacheConfig(), user: CacheConfig = CacheConfig())
        -> [SettingLayer]
    {
        [SettingLayer(.flag, flags), SettingLayer(cacheFile, cache), SettingLayer(userFile, user)]
    }

    @Test func eachKeyComesFromTheStrongestSourceThatGivesIt() throws {
        var flags = CacheConfig(), cache = CacheConfig(), user = CacheConfig()
        flags.jobs = 2
        cache.jobs = 3
        cache.scales = [1, 2]
        user.jobs = 4
        user.sizes = ["60x60"]
        user.rate = 1.5
        let settings = try EffectiveSettings.resolve(layers(flags: flags, cache: cache, user: user))
        #expect(settings.jobs.value == 2 && settings.jobs.source == .flag)
        #expect(settings.scales.value == [1, 2] && settings.scales.source == cacheFile)
        #expect(settings.sizes.value == [ThumbnailSize(width: 60, height: 60)] && settings.sizes.source == userFile)
        #expect(settings.rate.value == 1.5 && settings.rate.source == userFile)
        #expect(settings.perHost.value == LoadingOptions().perHost && settings.perHost.source == .builtIn)
        #expect(settings.maxSize.value == nil && settings.maxSize.source == .builtIn)
        #expect(settings.thumbnailSizes == [ThumbnailSize(width: 60, height: 60), ThumbnailSize(width: 120, height: 120)])
    }

    @Test func formatQualityAndFitMakeEverySizeScaledOnesToo() throws {
        var flags = CacheConfig(), cache = CacheConfig(), user = CacheConfig()
        flags.format = "webp"
        cache.quality = 60
        cache.format = "avif"
        user.fit = "contain"
        user.sizes = ["40x30"]
        cache.scales = [1, 2]
        let settings = try EffectiveSettings.resolve(layers(flags: flags, cache: cache, user: user))
        #expect(settings.format.value == .webp && settings.format.source == .flag)
        #expect(settings.quality.value == 60 && settings.quality.source == cacheFile)
        #expect(settings.fit.value == .contain && settings.fit.source == userFile)
        #expect(settings.thumbnailSizes?.map(\.description) == ["40x30-contain-q60.webp", "80x60-contain-q60.webp"])
        let defaults = try EffectiveSettings.resolve(layers())
        #expect(defaults.format.value == .png && defaults.format.source == .builtIn && defaults.fit.value == .cover)
        #expect(SettingsListing(defaults).entries.first { $0.key == "format" }?.value == .text("png"))
    }

    @Test func nothingGivenIsTheBuiltInDefaults() throws {
        let settings = try EffectiveSettings.resolve(layers())
        #expect(settings.thumbnailSizes == ImagingOptions().sizes)
        #expect(settings.jobs.value == LoadingOptions().jobs)
        var options = SyncOptions()
        options.apply(settings)
        #expect(options.loading.jobs == SyncOptions().loading.jobs && options.loading.userAgent == nil)
    }

    @Test func theLeastSizesComeFromTheStrongestSourceAndReachTheSync() throws {
        var flags = CacheConfig(), cache = CacheConfig(), user = CacheConfig()
        cache.minPixels = PixelSize(width: 32, height: 32)
        user.minPixels = PixelSize(width: 8, height: 8)
        user.minBytes = 500
        var settings = try EffectiveSettings.resolve(layers(flags: flags, cache: cache, user: user))
        #expect(settings.minPixels.value == PixelSize(width: 32, height: 32) && settings.minPixels.source == cacheFile)
        #expect(settings.minBytes.value == 500 && settings.minBytes.source == userFile)
        flags.minPixels = PixelSize(width: 16, height: 10)
        settings = try EffectiveSettings.resolve(layers(flags: flags, cache: cache, user: user))
        var options = SyncOptions()
        options.apply(settings)
        #expect(options.loading.minPixels == PixelSize(width: 16, height: 10) && options.loading.minBytes == 500)
        let listed = SettingsListing(settings).entries.filter { $0.key.hasPrefix("min_") }
        #expect(listed.map(\.key) == ["min_bytes", "min_pixels"])
        #expect(listed.map(\.value) == [.integer(500), .text("16x10")])
        #expect(listed.map(\.source) == ["user", "flag"])
    }

    @Test func aSizeOverTheBoundNamesTheFileItCameFrom() {
        var cache = CacheConfig()
        cache.sizes = ["5000x10"]
        #expect {
            try EffectiveSettings.resolve(layers(cache: cache))
        } throws: { error in
            let invalid = error as? EffectiveSettings.Invalid
            return invalid?.fromFlag == false && invalid?.description.hasPrefix("/c/config.json: sizes") == true
        }
        var flags = CacheConfig()
        flags.scales = [200]
        #expect {
            try EffectiveSettings.resolve(layers(flags: flags))
        } throws: { error in
            (error as? EffectiveSettings.Invalid)?.description.hasPrefix("--scales") == true
        }
    }

    @Test func onlyTheSettingsOfWhatTheCacheHoldsAndHowItIsFetchedStick() {
        var flags = CacheConfig(maxSize: 1000, store: "s3://b")
        flags.sizes = ["120x80"]
        flags.jobs = 4
        flags.maxAge = 60
        flags.minBytes = 2_000
        flags.minPixels = PixelSize(width: 32, height: 32)
        let sticky = CacheConfigFile.sticky(flags)
        #expect(Set(sticky.keys) == ["sizes", "jobs"])
    }
}
