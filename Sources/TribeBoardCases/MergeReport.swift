import Foundation
import TribeBoardCloudKit
import TribeBoardDomain

/// What `tribeboard merge DUPLICATE --into KEPT` is asked.
package struct MergeRequest: Sendable {
    package var storePath: String
    /// Record ids, codes or external ids (as `recode` takes them).
    package var duplicate: String
    package var kept: String
    package var apply = false
    package var client: CloudKitClient?
    package var showCodes = false

    package init(storePath: String, duplicate: String, kept: String) {
        self.storePath = storePath
        self.duplicate = duplicate
        self.kept = kept
    }

    func display(_ code: String) -> String { showCodes ? code : FamilyCode.mask(code) }
}

/// The outcome of one merge. JSON keys are a stable interface.
package struct MergeReport: Encodable, Sendable {
    package struct Member: Encodable, Sendable, Equatable {
        package let userId: String
        package let displayName: String
        /// The role in the kept family (moved), or in the duplicate.
        package var role: String
        /// `store`, or `cloudkit` for someone who joined the duplicate in the app.
        package let from: String
        /// `moved`, or why not (already a member, the kept family's admin registered twice).
        package var outcome = "planned"

        init(userId: String, displayName: String, role: String, from: String) {
            (self.userId, self.displayName, self.role, self.from) = (
                userId, displayName, role, from
            )
        }
    }

    package var command = "merge"
    package var store: String
    package var applied: Bool
    /// An earlier run merged the duplicate into this family already: nothing left to do.
    package var alreadyMerged = false
    package var duplicateId = ""
    package var duplicateName = ""
    /// Masked unless `--show-codes`.
    package var duplicateCode = ""
    package var keptId = ""
    package var keptName = ""
    package var members: [Member] = []
    /// The kept family's new memberships created in CloudKit by this run (the rest wait for
    /// resync).
    package var membershipsUploaded = 0
    package var requests = 0
    /// The duplicate's removal (with --apply).
    package var removal: RemoveReport?
    /// What becomes of the duplicate's printed code.
    package var duplicateCodeFate =
        "released: the duplicate's printed card finds no family (the app finds a "
        + "family by the code its Family record holds, and only the duplicate's held it); give its members "
        + "the kept family's card"
    /// The command that prints the kept family's card.
    package var reprintCommand = ""

    init(store: String, applied: Bool) {
        self.store = store
        self.applied = applied
    }
}
