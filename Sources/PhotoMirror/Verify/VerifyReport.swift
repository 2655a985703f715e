/// What `verify` found. Damage means the cache lies (an indexed file missing or wrong, a manifest
/// pointing at nothing); garbage is harmless leftovers (files no row names, a killed writer's
/// temp files) that the next writer may delete.
public struct VerifyReport: Sendable {
    public var checkedFiles = 0
    public var checkedManifests = 0
    public var damage: [String] = []
    public var garbage: [String] = []

    public var isHealthy: Bool { damage.isEmpty }
}
