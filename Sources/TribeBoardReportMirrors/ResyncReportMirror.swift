import Foundation

/// `resync --json`: how it ended and what it set aside.
package struct ResyncReportMirror: Decodable {
    package var stopKind: String?
    package var stoppedBy: String?
    /// The wait CloudKit asked for when its throttling stopped the run.
    package var stopRetryAfter: Double?
    package let exitKind: String
    package let synced: Int
    /// CloudKit requests sent (users/caller among them).
    package let requests: Int
    package let failed: Int
    package let quarantined: Int
    package let conflicts: Int
    /// Of `conflicts`, those whose own record name CloudKit holds (another version).
    package let nameConflicts: Int
    package var metricsFileError: String?
    package let setAside: [Entry]
    package let unfinishedCreations: Int
    package let unfinishedCreationIds: [String]
    package let heldBack: Int
    package var awaitingInvitedAdmin: Int?

    package struct Entry: Decodable {
        package let id: String
        package let status: String
        package var lastError: String?
        package var conflictWith: String?
    }
}

/// `resync --list --json`: the records set aside.
package struct ResyncListMirror: Decodable {
    package let entries: [ResyncReportMirror.Entry]
}

/// `resync --release --json`: what was released and what was not set aside.
package struct ResyncReleaseMirror: Decodable {
    package let command: String
    package let notSetAside: [String]
}

/// `resync --reupload --json`: the families marked, and the ids of none.
package struct ReuploadReportMirror: Decodable {
    package let marked: [String]
    package let unknown: [String]
}
