/// Flags several commands share with one meaning.
extension Flag {
    static let cache = Flag(
        name: "cache", placeholder: "DIR", kind: .directory, summary: "cache folder",
        help: "cache folder (see `photomirror help`)")
    static let json = Flag(
        name: "json", kind: .toggle, summary: "print JSON on stdout",
        help: "print a JSON summary on stdout")
    static let quiet = Flag(
        name: "quiet", kind: .toggle, summary: "print nothing but errors",
        help: "print nothing but errors")
    static let wait = Flag(
        name: "wait", placeholder: "SECONDS", kind: .secondsOrZero, summary: "how long to wait for another writer's lock",
        help: "how long to wait for another writer's lock (default 5)")
}
