import Foundation
import PhotoMirror

/// The keys every `--json` document starts with (docs/json.md): which schema, which command,
/// and when it ran, in ISO 8601 UTC.
struct JSONEnvelope: Encodable {
    /// Raised when a key is removed or changes meaning; new keys keep it.
    static let schemaVersion = 1

    let command: String
    let started: Date
    let finished: Date

    init(command: String, started: Date, finished: Date = Date()) {
        self.command = command
        self.started = started
        self.finished = finished
    }

    enum CodingKeys: String, CodingKey {
        case command
        case schemaVersion = "schema_version"
        case startedAt = "started_at"
        case finishedAt = "finished_at"
        case durationSeconds = "duration_seconds"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.schemaVersion, forKey: .schemaVersion)
        try container.encode(command, forKey: .command)
        try container.encode(JSONTime.string(started), forKey: .startedAt)
        try container.encode(JSONTime.string(finished), forKey: .finishedAt)
        try container.encode(JSONTime.seconds(finished.timeIntervalSince(started)), forKey: .durationSeconds)
    }
}

/// Times and durations as every document gives them.
enum JSONTime {
    /// `2026-12-02T04:00:00Z`.
    static func string(_ date: Date) -> String { W3CTimestamp.format(date.timeIntervalSince1970) }

    static func string(seconds: Double?) -> String? { seconds.map { W3CTimestamp.format($0) } }

    /// Milliseconds are as fine as a log needs.
    static func seconds(_ value: Double) -> Double { (max(value, 0) * 1000).rounded() / 1000 }
}

/// One document: pretty-printed, sorted keys, one trailing newline.
enum JSONDocument {
    static func encode(_ value: some Encodable, pretty: Bool = true) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }
}

extension JSONDocument {
    /// `value` as a JSON object, with `nulls` set to null where its encoding left them out (a
    /// synthesized `Encodable` skips nil), so every key of the schema is present.
    static func object(_ value: some Encodable, nulls: [String] = []) -> [String: Any] {
        let data = (try? JSONEncoder().encode(value)) ?? Data("{}".utf8)
        var object = ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any]) ?? [:]
        for key in nulls where object[key] == nil { object[key] = NSNull() }
        return object
    }

    /// The envelope's keys, then `fields`, as one document.
    static func encode(_ envelope: JSONEnvelope, _ fields: [String: Any], pretty: Bool = true) -> String {
        var document = object(envelope)
        document.merge(fields) { $1 }
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        if pretty { options.insert(.prettyPrinted) }
        let data = (try? JSONSerialization.data(withJSONObject: document, options: options)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
