import Foundation

/// What a fixture server started with `--events FILE` saw, in the order it happened:
/// connections opened and closed, requests begun and answered, each with the server's time.
struct ServerEvents {
    struct Request {
        let path: String
        let began: Double
        var ended: Double?
        var status: Int?
    }

    private(set) var maxConnections = 0
    private(set) var maxInFlight = 0
    private(set) var requests: [Request] = []

    init(file: URL) {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        var connections = 0, inFlight = 0
        var open: [String: [Int]] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard words.count >= 2, let time = Double(words[0]) else { continue }
            switch words[1] {
            case "open":
                connections += 1
                maxConnections = max(maxConnections, connections)
            case "close":
                connections -= 1
            case "begin" where words.count >= 3:
                inFlight += 1
                maxInFlight = max(maxInFlight, inFlight)
                open[words[2], default: []].append(requests.count)
                requests.append(Request(path: words[2], began: time))
            case "end" where words.count >= 4:
                inFlight -= 1
                if let index = open[words[2]]?.first {
                    open[words[2]]?.removeFirst()
                    requests[index].ended = time
                    requests[index].status = Int(words[3])
                }
            default:
                continue
            }
        }
    }

    func requests(under prefix: String) -> [Request] {
        requests.filter { $0.path.hasPrefix(prefix) }
    }
}
