import PMImaging

/// A thumbnail's width and height in pixels (`ThumbnailSize(width: 40, height: 40)`, or
/// parsed from `"40x40"`), so that `import PhotoMirror` alone is enough to use the library.
public typealias ThumbnailSize = PMImaging.ThumbnailSize
