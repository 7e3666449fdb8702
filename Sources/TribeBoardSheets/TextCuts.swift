/// The text blocks that did not fit even in the smallest type, per family: what `--allow-cut`
/// accepts and what a run without it refuses. Memory is bounded: every cut is counted, the first
/// `listed` are kept by name.
package struct TextCuts: Sendable, Encodable, Equatable {
    /// One invitation's cut blocks, by the template's names for them (`wording`, `title`,
    /// `family_name`, `organisation`, `code_label`, `code`, `admin_name`).
    package struct Cut: Sendable, Encodable, Equatable {
        package let familyId: String
        package let familyName: String
        package let fields: [String]
        /// What is too long: this family's data, or the template's own text.
        package let cause: Cause
    }

    /// `data`: the family's name, admin or columns (the same template fits a card with short
    /// ones); `template`: its wording, title or labels do not fit even with one-letter names.
    package enum Cause: String, Sendable, Encodable, Equatable {
        case data, template
    }

    static let listed = 20

    /// Invitations with at least one block cut.
    package private(set) var invitations = 0
    /// How many invitations had each block cut.
    package private(set) var fields: [String: Int] = [:]
    /// The first `listed` of them.
    package private(set) var first: [Cut] = []

    package var isEmpty: Bool { invitations == 0 }

    package init() {}

    package mutating func record(familyId: String, familyName: String, fields cut: [String], cause: Cause) {
        guard !cut.isEmpty else { return }
        invitations += 1
        for field in cut { fields[field, default: 0] += 1 }
        if first.count < Self.listed { first.append(Cut(familyId: familyId, familyName: familyName, fields: cut, cause: cause)) }
    }

    /// Whether any listed cut is the template's.
    package var templateCauses: Bool { first.contains { $0.cause == .template } }

    /// "Dupont (F1): wording, title; …; and 12 more", for messages; the cause once, ahead, when
    /// every listed card has the same (a template too long for all 300 is said once, not 300 times).
    package var summary: String {
        let causes = Set(first.map(\.cause))
        let shared = causes.count == 1 ? causes.first : nil
        let named = first.map { cut in
            "\(cut.familyName) (\(cut.familyId)): \(cut.fields.joined(separator: ", "))" + (shared == nil ? " (\(Self.sentence(cut.cause)))" : "")
        }.joined(separator: "; ")
        let listed = invitations > first.count ? "\(named); and \(invitations - first.count) more" : named
        return shared.map { "\(Self.sentence($0)): \(listed)" } ?? listed
    }

    private static func sentence(_ cause: Cause) -> String {
        cause == .data ? "the data is too long (the template fits shorter names)" : "the template's text is too long (it does not fit even with one-letter names)"
    }
}
