import Foundation
import TribeBoardStore

/// Families whose name contains what was typed, ignoring case and diacritics ("muller" finds
/// "Müller"), as support staff type names from a ticket. One pass over the table: the fold is
/// Foundation's, which SQLite's LIKE cannot do.
enum FamilyNameSearch {
    /// At most this many matches are listed; `total` counts them all.
    static let listed = 50

    static func fold(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func matches(_ query: String, in store: TribeBoardStore) throws -> (matches: [FamilyNameMatch], total: Int) {
        let wanted = fold(query)
        guard wanted.count >= 2 else { return ([], 0) }
        return try store.familiesNamed(limit: listed) { fold($0).contains(wanted) }
    }
}
