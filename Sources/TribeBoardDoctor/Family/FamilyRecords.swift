import Foundation
import TribeBoardDomain
import TribeBoardStore
import TribeBoardSupport

/// One thing that happened to the family, from the store or from CloudKit.
package struct TimelineEvent: Sendable, Codable, Equatable {
    /// nil when the store's column holds no date (a hand edit) or CloudKit gave none.
    package let at: Timestamp?
    /// `families`, `creation_log`, `memberships`, `sync_state` or `cloudkit`.
    package let source: String
    package let what: String
}

/// Everything the store holds about one family, read in one transaction (the store's
/// `familyHistory`).
struct FamilyRecords {
    typealias LogEntry = FamilyHistory.LogEntry
    typealias Membership = FamilyHistory.Membership
    typealias SyncEntry = FamilyHistory.SyncEntry

    let family: FamilyFacts
    let log: [LogEntry]
    let memberships: [Membership]
    let sync: [SyncEntry]

    /// By record id, code or external id (`ext:` import key), in that order of preference.
    static func find(_ query: String, in store: some StoreReading) throws -> FamilyRecords? {
        try store.familyHistory(matching: query).map {
            FamilyRecords(
                family: $0.family, log: $0.log, memberships: $0.memberships, sync: $0.sync)
        }
    }

    var familySync: SyncEntry? { sync.first { $0.table == "families" } }

    /// The store's events in time order.
    var events: [TimelineEvent] {
        var events = [TimelineEvent(at: family.createdAt, source: "families", what: "family \"\(family.name)\" created with code \(family.code)")]
        events += log.map { TimelineEvent(at: $0.at, source: "creation_log", what: $0.state + ($0.error.map { ": \($0)" } ?? "")) }
        events += memberships.map {
            TimelineEvent(at: $0.joinedAt, source: "memberships",
                          what: "\($0.user) joined as \($0.role) (\($0.status))\($0.needsSync ? ", waiting for sync" : "")")
        }
        events += sync.map {
            TimelineEvent(
                at: $0.lastAttemptAt, source: "sync_state",
                what: "\($0.table) \($0.id): \($0.status) after \($0.attempts) attempts"
                    + ($0.lastError.map { ": \($0)" } ?? ""))
        }
        if let synced = family.lastSyncDate {
            events.append(
                TimelineEvent(at: synced, source: "families", what: "family uploaded to CloudKit"))
        }
        return TimelineEvent.chronological(events)
    }
}

extension TimelineEvent {
    /// The one order of a timeline, whatever wrote each time: by the moment it names, ties and
    /// events without a date first, in the order given.
    static func chronological(_ events: [TimelineEvent]) -> [TimelineEvent] {
        let moments = events.map { $0.at?.milliseconds ?? Int64.min }
        return events.indices.sorted { (moments[$0], $0) < (moments[$1], $1) }.map { events[$0] }
    }
}
