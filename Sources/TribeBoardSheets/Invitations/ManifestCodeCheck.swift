/// A manifest's codes checked against the store: an audit repair or a migration
/// gives a family a new code after its manifest was written, and its old code may by then
/// belong to another family in CloudKit, so a card printed from the old manifest would join the
/// wrong family. With `--store` given, the store's current code is printed and the manifest is
/// named as out of date; with only the default store found, a disagreement refuses the run.
package struct ManifestCodeCheck: Sendable, Encodable, Equatable {
    /// A family whose manifest code is not the store's.
    package struct Outdated: Sendable, Encodable, Equatable {
        package let familyId: String
        package let familyName: String
        /// The store's `code_repairs` records that a repair replaced the manifest's code.
        package let repaired: Bool
    }

    static let listed = 20

    package let manifest: String
    /// The store the codes were checked against; nil when there was none to read (the codes
    /// are then the manifest's, unchecked).
    package let store: String?
    /// The store was named (`--store` or TRIBEBOARD_STORE): its codes win over the manifest's.
    package let storeWins: Bool
    /// Families whose manifest code is not the store's (printed with the store's when it wins).
    package private(set) var outdated = 0
    package private(set) var first: [Outdated] = []
    /// Families of the manifest the store does not have (printed with the manifest's code).
    package private(set) var notInStore = 0

    package init(manifest: String, store: String?, storeWins: Bool) {
        self.manifest = manifest
        self.store = store
        self.storeWins = storeWins
    }

    /// The invitation to print given what the store says of its family (nil: no store read).
    package mutating func resolve(_ invitation: Invitation, storeCode: String??, repaired: Bool)
        -> Invitation
    {
        guard let storeCode else { return invitation }
        guard let current = storeCode else {
            notInStore += 1
            return invitation
        }
        guard current != invitation.code else { return invitation }
        outdated += 1
        if first.count < Self.listed {
            first.append(
                Outdated(
                    familyId: invitation.familyId.rawValue, familyName: invitation.familyName,
                    repaired: repaired))
        }
        return Invitation(
            familyId: invitation.familyId, familyName: invitation.familyName, code: current,
            adminName: invitation.adminName, externalId: invitation.externalId,
            columns: invitation.columns)
    }

    /// The run must stop: codes disagree and the store was not named to settle it.
    package var refuses: Bool { outdated > 0 && !storeWins }

    /// "Family B (F2, given a new code by audit --repair or recode); …; and 3 more", for messages.
    package var summary: String {
        let named = first.map { family -> String in
            let repaired = family.repaired ? ", given a new code by audit --repair or recode" : ""
            return "\(family.familyName) (\(family.familyId)\(repaired))"
        }.joined(separator: "; ")
        return outdated > first.count ? "\(named); and \(outdated - first.count) more" : named
    }
}
