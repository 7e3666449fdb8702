/// `(?, ?, …)` for an `IN` list: statements whose list length varies with the batch.
package enum SQLPlaceholders {
    package static func list(_ count: Int) -> String {
        "(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
    }
}
