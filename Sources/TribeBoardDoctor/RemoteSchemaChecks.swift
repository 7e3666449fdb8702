import Foundation
import TribeBoardCloudKit
import TribeBoardRemote

/// Section 4, continued: the container's schema has what the commands rely on. One query of one
/// record per type and queried field, as the commands query them, so a missing type or index is
/// found here rather than by the first cron run.
struct RemoteSchemaChecks {
    /// A query some command makes, and which command needs it.
    struct Probe: Sendable {
        let id: DoctorCheckID
        let recordType: RecordType
        /// False: an unfiltered read, which needs `___recordID` QUERYABLE.
        let codeFilter: Bool
        let neededBy: String
    }

    static let probes: [Probe] = [
        Probe(
            id: .remoteSchemaFamilyCode, recordType: .family, codeFilter: true,
            neededBy: "provision and resync (code check), doctor family"),
        Probe(
            id: .remoteSchemaFamilyRecordID, recordType: .family, codeFilter: false,
            neededBy: "the live audit"),
        Probe(
            id: .remoteSchemaUserProfileRecordID, recordType: .userProfile, codeFilter: false,
            neededBy: "migrate"),
        Probe(
            id: .remoteSchemaMembershipRecordID, recordType: .membership, codeFilter: false,
            neededBy: "migrate"),
        Probe(
            id: .remoteSchemaCKFamilyRecordID, recordType: .legacyFamily, codeFilter: false,
            neededBy: "the live audit, migrate"),
        Probe(
            id: .remoteSchemaCKUserProfileRecordID, recordType: .legacyUserProfile,
            codeFilter: false, neededBy: "the live audit, migrate"),
        Probe(
            id: .remoteSchemaCKMembershipRecordID, recordType: .legacyMembership, codeFilter: false,
            neededBy: "the live audit, migrate"),
        Probe(
            id: .remoteSchemaCKFamilyCode, recordType: .legacyFamily, codeFilter: true,
            neededBy: "provision and resync (code check against legacy families)")
    ]

    let client: CloudKitClient

    /// Every probe at once (the client sends at most 4 at a time): against a far container the
    /// checklist costs a few round trips, not one per probe. Reported in the probes' order, up to
    /// the first that could not be checked (the service is busy or away: the others would say the
    /// same).
    func run() async -> [DoctorCheck] {
        let checks = await withTaskGroup(of: (Int, DoctorCheck).self) { group in
            for (index, probe) in Self.probes.enumerated() {
                group.addTask { (index, await check(probe)) }
            }
            var all: [(Int, DoctorCheck)] = []
            for await done in group { all.append(done) }
            return all.sorted { $0.0 < $1.0 }.map(\.1)
        }
        guard let firstUnchecked = checks.firstIndex(where: { $0.status == .warning }) else {
            return checks
        }
        return Array(checks[...firstUnchecked])
    }

    private func check(_ probe: Probe) async -> DoctorCheck {
        let what =
            probe.codeFilter
            ? "\(probe.recordType) queryable by code"
            : "\(probe.recordType) readable in full (___recordID queryable)"
        let id = probe.id
        do {
            try await SchemaProbe(recordType: probe.recordType, codeFilter: probe.codeFilter).run(
                on: client)
            return DoctorCheck(id, .remote, .ok, checked: what, found: "yes")
        } catch  where error.isMissingLegacyType {
            return DoctorCheck(
                id, .remote, .ok, checked: what,
                found: "no such legacy type in this environment: nothing to read")
        } catch  where error.category == .configuration {
            return DoctorCheck(
                id, .remote, .failure, checked: what, found: error.localizedDescription,
                action:
                    "fix the schema before running \(probe.neededBy); the found text names the fix")
        } catch {
            return DoctorCheck(
                id, .remote, .warning, checked: what,
                found: "not checked: \(error.localizedDescription)",
                action: "run doctor again later")
        }
    }
}
