import Foundation
import TribeBoardCloudKit

/// Section 4, continued: the container's schema has what the commands rely on. One query of one
/// record per type and queried field, as the commands query them, so a missing type or index is
/// found here rather than by the first cron run.
struct RemoteSchemaChecks {
    /// A query some command makes, and which command needs it.
    struct Probe: Sendable {
        let recordType: String
        /// False: an unfiltered read, which needs `___recordID` QUERYABLE.
        let codeFilter: Bool
        let neededBy: String
    }

    static let probes: [Probe] = [
        Probe(recordType: RecordMapping.familyType, codeFilter: true, neededBy: "provision and resync (code check), doctor family"),
        Probe(recordType: RecordMapping.familyType, codeFilter: false, neededBy: "the live audit"),
        Probe(recordType: "UserProfile", codeFilter: false, neededBy: "migrate"),
        Probe(recordType: "Membership", codeFilter: false, neededBy: "migrate"),
    ] + RecordMapping.legacyTypes.map { Probe(recordType: $0, codeFilter: false, neededBy: "the live audit, migrate") }
      + [Probe(recordType: "CKFamily", codeFilter: true, neededBy: "provision and resync (code check against legacy families)")]

    let client: CloudKitClient

    func run() async -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        for probe in Self.probes {
            let query = CloudKitQuery(recordType: probe.recordType, filterBy: probe.codeFilter ? [.equals("code", "")] : nil)
            let what = probe.codeFilter ? "\(probe.recordType) queryable by code" : "\(probe.recordType) readable in full (___recordID queryable)"
            let id = "remote.schema.\(probe.recordType).\(probe.codeFilter ? "code" : "recordID")"
            do {
                _ = try await client.query(query, resultsLimit: 1)
                checks.append(DoctorCheck(id, .remote, .ok, checked: what, found: "yes"))
            } catch where error.isMissingLegacyType {
                checks.append(DoctorCheck(id, .remote, .ok, checked: what, found: "no such legacy type in this environment: nothing to read"))
            } catch where error.category == .configuration {
                checks.append(DoctorCheck(id, .remote, .failure, checked: what, found: error.localizedDescription,
                                          action: "fix the schema before running \(probe.neededBy); the found text names the fix"))
            } catch {
                checks.append(DoctorCheck(id, .remote, .warning, checked: what, found: "not checked: \(error.localizedDescription)",
                                          action: "run doctor again later"))
                return checks  // the service is busy or away: the other probes would say the same
            }
        }
        return checks
    }
}
