import Foundation
import TribeBoardStore

/// Families whose name contains what was typed, ignoring case and diacritics ("muller" finds
/// "Müller"), as support staff type names from a ticket. One pass over the table: the fold is
/// Foundation's, which SQLite's LIKE cannot do.
enum FamilyNameSearch {
    /// At most this many matches are listed; `total` counts them all.
    static let listed = 50

    /// Case, accents and width folded, and every space, apostrophe, hyphen and other punctuation
    /// dropped: "O'Brien", "O’Brien" (as phones type it), "OBrien" and "o brien" are one name, and
    /// "emile zoe" finds "Émile-Zoë". Only letters and digits are compared.
    static func fold(_ text: String) -> String {
        let folded = text.precomposedStringWithCanonicalMapping
            .folding(
                options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var result = ""
        result.unicodeScalars.append(
            contentsOf: folded.unicodeScalars.filter { !ignored.contains($0) })
        return result
    }

    private static let ignored = CharacterSet.whitespacesAndNewlines.union(.punctuationCharacters)
        .union(.symbols)
        .union(.controlCharacters)

    /// The fewest letters or digits a name search needs: one would match most of the store.
    static let shortestQuery = 2

    /// Whether `query` is long enough to search names with.
    static func searchable(_ query: String) -> Bool { fold(query).count >= shortestQuery }

    static func matches(_ query: String, in store: some StoreReading) throws -> (
        matches: [FamilyNameMatch], total: Int
    ) {
        let wanted = fold(query)
        guard wanted.count >= shortestQuery else { return ([], 0) }
        return try store.familiesNamed(limit: listed) { fold($0).contains(wanted) }
    }
}
