/// The text blocks that did not fit even in the smallest type, per family: what `--allow-cut`
/// accepts and what a run without it refuses. Memory is bounded: every cut is counted, the first
/// `listed` are kept by name.
package struct TextCuts: Sendable, Encodable, Equatable {
    /// One invitation's cut blocks, by the template's names for them (`wording`, `title`,
    /// `family_name`, `organisation`, `code_label`, `code`, `admin_name`), each with its cause.
    package struct Cut: Sendable, Encodable, Equatable {
        package let familyId: String
        package let familyName: String
        package let fields: [String]
        /// What is too long, for each field: this family's data, or the template's own text (a
        /// card can have both: a wording too long for any card, and a name too long for this one).
        package let causes: [String: Cause]
    }

    /// `data`: the family's name, admin or columns (the same template fits a card with short
    /// ones); `template`: its wording, title or labels do not fit even with one-letter names.
    package enum Cause: String, Sendable, Encodable, Equatable, Comparable {
        case data, template

        package static func < (left: Self, right: Self) -> Bool { left.rawValue < right.rawValue }
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

    mutating func record(familyId: String, familyName: String, causes: [SheetField: Cause]) {
        guard !causes.isEmpty else { return }
        invitations += 1
        for field in causes.keys { fields[field.rawValue, default: 0] += 1 }
        guard first.count < Self.listed else { return }
        first.append(
            Cut(
                familyId: familyId, familyName: familyName,
                fields: causes.keys.sorted().map(\.rawValue),
                causes: Dictionary(uniqueKeysWithValues: causes.map { ($0.key.rawValue, $0.value) })
            ))
    }

    /// The causes of the listed cuts, each once.
    package var causes: Set<Cause> { Set(first.flatMap(\.causes.values)) }

    /// "Dupont (F1): wording, title; …; and 12 more", for messages; the cause once, ahead, when
    /// every listed text has the same (a template too long for all 300 is said once, not 300
    /// times), else each text's after it ("wording (template), family_name (data)").
    package var summary: String {
        let shared = causes.count == 1 ? causes.first : nil
        let named = first.map { cut in
            "\(cut.familyName) (\(cut.familyId)): "
                + cut.fields.map { field in
                    shared == nil ? "\(field) (\(cut.causes[field]?.rawValue ?? ""))" : field
                }
                .joined(separator: ", ")
        }.joined(separator: "; ")
        let listed =
            invitations > first.count ? "\(named); and \(invitations - first.count) more" : named
        let reasons = causes.sorted().map(Self.sentence).joined(separator: ", and ")
        return "\(reasons): \(listed)"
    }

    private static func sentence(_ cause: Cause) -> String {
        cause == .data ? "the data is too long (the template fits shorter names)"
            : "the template's text is too long (it does not fit even with one-letter names)"
    }
}
