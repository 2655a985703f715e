/// What reading a feed's items had to repair or guess, told once per cause however many items
/// share it: a feed of 500 items that all carry one mistyped field gives one warning, not 500.
/// A class, so that each item's reader notes into the one tally of the feed it is collected in;
/// it lives for one synchronous reading of one document and never leaves it.
final class ItemWarnings {
    private struct Cause {
        let message: String
        var items: Int
        var lastItem: Int
    }

    private var order: [String] = []
    private var causes: [String: Cause] = [:]
    /// The position of the item being read, set by its collector: an item that meets one cause
    /// twice counts once.
    var item = 0

    /// `key` names the cause (a field, a guess), and the first message given for it is the one told.
    func note(_ key: String, _ message: @autoclosure () -> String) {
        if var cause = causes[key] {
            guard cause.lastItem != item else { return }
            cause.items += 1
            cause.lastItem = item
            causes[key] = cause
        } else {
            order.append(key)
            causes[key] = Cause(message: message(), items: 1, lastItem: item)
        }
    }

    /// One line per cause, in the order they were first met, each with how many items had it.
    var messages: [String] {
        order.compactMap { causes[$0] }.map { "\($0.message) (\($0.items) item\($0.items == 1 ? "" : "s"))" }
    }
}
