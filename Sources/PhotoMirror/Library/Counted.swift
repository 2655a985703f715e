/// "1 item", "2 items": a count with its noun, so output reads right at one.
public func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
