import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore

/// What `tribeboard remove` is asked.
package struct RemoveRequest: Sendable {
    package var storePath: String
    /// Record ids, codes or external ids (as `recode` takes them), one per family.
    package var families: [String]
    package var apply = false
    /// Remove a family with members besides its admin, with them.
    package var force = false
    /// nil: no remote configured (only families that never reached CloudKit can go).
    package var client: CloudKitClient?
    package var showCodes = false

    package init(storePath: String, families: [String]) {
        self.storePath = storePath
        self.families = families
    }

    func display(_ code: String) -> String { showCodes ? code : FamilyCode.mask(code) }
}

/// One family's removal, planned or done. JSON keys are a stable interface.
package struct RemovedFamily: Encodable, Sendable, Equatable {
    package enum Outcome: String, Encodable, Sendable {
        /// A dry run: what --apply would do.
        case planned
        case removed
        /// An earlier run removed it (the store keeps the removal).
        case alreadyRemoved
        /// Members besides the admin, without --force.
        case refused
        case notFound
        /// CloudKit refused or left unanswered part of it: the removal stays started, rerun.
        case unfinished
    }

    package struct Member: Encodable, Sendable, Equatable {
        package let membershipId: String
        package let userId: String
        package let displayName: String
        package let role: String
        package let status: String
        /// What happens to the person's profile: `kept` (another family uses it, or it is in
        /// CloudKit: a person's profile is theirs), `deleted` (used by no other family and never
        /// uploaded).
        package let profile: String
    }

    /// As given (`--from-file`'s line, or the argument).
    package let query: String
    package var familyId: String?
    package var familyName: String?
    /// Masked unless `--show-codes`.
    package var code: String?
    package var outcome: Outcome
    /// Its creation never completed (no admin): never uploaded by resync.
    package var unfinishedCreation = false
    package var members: [Member] = []
    /// CloudKit records deleted (or found gone) this run: memberships, the family, code claims.
    package var remoteMembershipsDeleted = 0
    package var remoteFamilyDeleted = false
    package var claimsReleased = 0
    /// Claims of its codes another family holds: not ours, left.
    package var claimsNotOurs = 0
    package var problem: String?
    package var mergedInto: String?
    /// CloudKit refused to delete its family record (ACCESS_DENIED): another creator's record.
    package var anotherCreator = false
    /// Memberships CloudKit refused to delete because app users created them (they joined in the
    /// app; only they can leave): the family record stays, so nothing points at a deleted family.
    package var membershipsNotOurs = 0
}

/// The outcome of one `remove` (one family, or a `--from-file` list). JSON keys are a stable
/// interface.
package struct RemoveReport: Encodable, Sendable {
    package var command = "remove"
    package var store: String
    package var applied: Bool
    /// Whether CloudKit was read (and written, with --apply).
    package var remote: Bool
    package var asked = 0
    package var removed = 0
    package var alreadyRemoved = 0
    package var planned = 0
    package var refused = 0
    package var notFound = 0
    package var unfinished = 0
    /// Of `unfinished`, families whose CloudKit record another creator wrote: adopt, not a rerun.
    package var notOurs = 0
    /// Families kept because members who joined in the app still belong (`membershipsNotOurs`).
    package var heldByMembers = 0
    package var requests = 0
    /// The first `listedLimit` families (all of them for a single family).
    package var families: [RemovedFamily] = []
    /// What becomes of the family's printed code.
    package var codes = "released: the code is free again, and its printed card finds no family"
    package var nextStep: String?

    static let listedLimit = 100

    mutating func add(_ family: RemovedFamily) {
        switch family.outcome {
        case .planned: planned += 1
        case .removed: removed += 1
        case .alreadyRemoved: alreadyRemoved += 1
        case .refused: refused += 1
        case .notFound: notFound += 1
        case .unfinished: unfinished += 1
        }
        if family.anotherCreator { notOurs += 1 }
        if family.membershipsNotOurs > 0 { heldByMembers += 1 }
        if families.count < Self.listedLimit { families.append(family) }
    }

    /// Part of the job was not done: refused, not found or unfinished families.
    package var incomplete: Bool { refused + notFound + unfinished > 0 }
}
