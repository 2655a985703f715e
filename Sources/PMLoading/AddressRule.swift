import Foundation

/// Which addresses a request may connect to, checked against every address libcurl connects to
/// or reuses a connection to (redirect hops included), so neither a redirect nor a name that
/// resolves to a private address gets past it. `HTTPRequest.addressRule` nil checks nothing.
///
/// Public addresses are always allowed, and the addresses of one more zone, the feed's "home":
/// a feed at a loopback address (a demo, a test) may reach loopback addresses, one on the
/// private network private ones, and so on; a feed at a public address reaches public ones only.
public enum AddressRule: Sendable, Equatable {
    /// A feed's first request: the zone of the first address it connects to becomes its home,
    /// which the response reports (`HTTPResponse.zone`) for the feed's other requests.
    case learnsHome
    /// A request for a feed whose home is this zone (its other pages, its images).
    case home(AddressZone)

    /// Whether an address of `zone` may be connected to, when the request's first connection
    /// was to `first`.
    func admits(_ zone: AddressZone, first: AddressZone) -> Bool {
        switch self {
        case .learnsHome: zone == .public || zone == first
        case .home(let home): zone == .public || zone == home
        }
    }
}

/// Classes addresses into zones, with the test switch that marks named addresses as public.
public struct AddressClassifier: Sendable, Equatable {
    /// For tests only, which may not send traffic beyond 127.0.0.0/8: addresses (comma-separated)
    /// that are classed as public, e.g. `127.0.0.2`, to stand for a public feed host.
    public static let testPublicVariable = "PHOTOMIRROR_TEST_PUBLIC_ADDRESSES"

    let classedPublic: Set<[UInt8]>

    public init(classedPublic: [String] = []) {
        self.classedPublic = Set(classedPublic.compactMap { IPAddressText.bytes($0.trimmingCharacters(in: .whitespaces)) })
    }

    public static func fromEnvironment(_ environment: [String: String]) -> AddressClassifier {
        AddressClassifier(classedPublic: environment[testPublicVariable].map { $0.split(separator: ",").map(String.init) } ?? [])
    }

    public func zone(of bytes: [UInt8]) -> AddressZone {
        classedPublic.contains(bytes) ? .public : AddressZone.of(bytes: bytes)
    }
}
