import PMCache
import PMImaging

/// A thumbnail's width and height in pixels (`ThumbnailSize(width: 40, height: 40)`, or
/// parsed from `"40x40"`), so that `import PhotoMirror` alone is enough to use the library.
public typealias ThumbnailSize = PMImaging.ThumbnailSize

/// The least width and height a download must declare to be mirrored (`SyncOptions.loading.minPixels`,
/// `--min-pixels`), parsed from `"32x32"` by `PixelSize.parse`.
public typealias PixelSize = PMCache.PixelSize
