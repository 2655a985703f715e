import PMSupport
import PhotoMirror

/// `thumb` names each output after its input's file name alone, so `a/x.jpg`, `b/x.jpg` and
/// `a/x.png` would all write `x.png`, the last one winning. Such inputs are refused, every
/// clash named, before anything is written (mirroring the inputs' folders under -o would turn
/// `../x.jpg` and absolute paths into surprising places).
enum ThumbCollisions {
    static func check(_ inputs: [String], output: String, format: ThumbnailFormat) throws(UsageError) {
        var byOutput: [String: [String]] = [:]
        var order: [String] = []
        for input in inputs {
            let path = ThumbBatch.outputPath(for: input, in: output, format: format)
            if byOutput[path] == nil { order.append(path) }
            if byOutput[path]?.contains(input) != true { byOutput[path, default: []].append(input) }
        }
        let clashes = order.compactMap { path in byOutput[path].flatMap { $0.count > 1 ? (path, $0) : nil } }
        guard !clashes.isEmpty else { return }
        let lines = clashes.map { "\($0.0) would be made from each of \($0.1.joined(separator: ", "))" }
        throw UsageError("thumb names each thumbnail after its input's file name, so these inputs collide "
            + "(nothing was written; rename them or run thumb once per folder):\n  " + lines.joined(separator: "\n  "))
    }
}
