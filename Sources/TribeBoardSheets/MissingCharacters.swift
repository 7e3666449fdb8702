import TribeBoardDomain

/// Characters printed as a box with their number (tofu), because no installed face has them: the
/// name or wording does not print whole, though nothing is cut. Counted and listed (the first
/// `listed` invitations by name), and said on stderr; the PDF is still written (a font can be
/// installed and the run made again). Only names, labels and wording are named, never a code.
package struct MissingCharacters: Sendable, Encodable, Equatable {
    package struct Family: Sendable, Encodable, Equatable {
        package let familyId: String
        package let familyName: String
        /// The texts concerned (`family_name`, `wording`, …).
        package let fields: [String]
        /// Each character once, as "U+1E290 TOTO LETTER PA".
        package let characters: [String]
    }

    static let listed = 20

    /// Invitations with at least one character printed as a box.
    package private(set) var invitations = 0
    /// The first `listed` of them.
    package private(set) var first: [Family] = []

    package var isEmpty: Bool { invitations == 0 }

    package init() {}

    mutating func record(familyId: String, familyName: String, fits: [SheetField: [Unicode.Scalar]])
    {
        let found = fits.filter { !$0.value.isEmpty }
        guard !found.isEmpty else { return }
        invitations += 1
        guard first.count < Self.listed else { return }
        var characters: [Unicode.Scalar] = []
        for scalar in found.sorted(by: { $0.key < $1.key }).flatMap(\.value)
        where !characters.contains(scalar) {
            characters.append(scalar)
        }
        first.append(
            Family(
                familyId: familyId, familyName: familyName,
                fields: found.keys.sorted().map(\.rawValue),
                characters: characters.map(Self.describe)))
    }

    /// "U+1E290 TOTO LETTER PA": its number and Unicode's name (its script's name first).
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let number = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        return scalar.properties.name.map { "\(number) \($0)" } ?? number
    }

    /// "Toto 𞊐𞊑 (F1): family_name (U+1E290 TOTO LETTER PA); …; and 3 more", for messages.
    package var summary: String {
        let named = first.map { "\($0.familyName) (\($0.familyId)): \($0.fields.joined(separator: ", ")) (\($0.characters.joined(separator: ", ")))" }
            .joined(separator: "; ")
        return invitations > first.count ? "\(named); and \(invitations - first.count) more" : named
    }
}
