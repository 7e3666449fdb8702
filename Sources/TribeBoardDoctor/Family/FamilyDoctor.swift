import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardSupport

/// `tribeboard doctor family CODE_OR_ID`: one family's timeline across the store and CloudKit,
/// what is wrong with it, and what to do next.
package struct FamilyReport: Sendable, Codable {
    package let query: String
    package let store: String
    package let family: FamilyFacts?
    package let timeline: [TimelineEvent]
    package let remote: RemoteFamilyState
    package let findings: [DoctorCheck]
    package let nextSteps: [String]
    package let passed: Bool
    /// Families whose name contains the query, when it named no id, code or external id and more
    /// than one name matched (the first 50; `nameMatchesTotal` counts them all).
    package var nameMatches: [FamilyNameMatch] = []
    package var nameMatchesTotal = 0
}

package struct FamilyDoctor: Sendable {
    let request: DoctorRequest
    let query: String
    let logger: Logger

    package init(request: DoctorRequest, query: String, logger: Logger) {
        self.request = request
        self.query = query
        self.logger = logger
    }

    /// The store is read on a thread of its own, then CloudKit is awaited.
    package func run() async -> FamilyReport {
        let lookup = await PipelineThread.run { self.readStore() }
        // A name several families share is no family's code or id: looking it up in CloudKit
        // would only report "no record with this name", as if the family did not exist.
        let remote =
            lookup.records == nil && lookup.total > 1
            ? RemoteFamilyState(
                status: .notAsked,
                detail: "\(lookup.total) families match: CloudKit is consulted for the one chosen")
            : await remoteState(lookup.records)
        var report = report(lookup.records, lookup.findings, remote: remote)
        report.nameMatches = lookup.matches
        report.nameMatchesTotal = lookup.total
        return report
    }

    /// What the store says of the query: the family, what was found, and the name matches.
    struct StoreLookup: Sendable {
        var records: FamilyRecords?
        var findings: [DoctorCheck] = []
        var matches: [FamilyNameMatch] = []
        var total = 0
    }

    private func readStore() -> StoreLookup {
        logger.debug("looking up one family", metadata: ["query": "\(FamilyCode.mask(query))"])
        var lookup = StoreLookup()
        do {
            let store = try TribeBoardStore.openReadOnly(at: request.storePath)
            lookup.records = try FamilyRecords.find(query, in: store)
            guard lookup.records == nil else { return lookup }
            // Support tickets name families: by name too, when nothing else matched.
            let (matches, total) = try FamilyNameSearch.matches(query, in: store)
            if total == 1, let only = matches.first {
                lookup.records = try FamilyRecords.find(only.id.rawValue, in: store)
                return lookup
            }
            lookup.matches = matches
            lookup.total = total
            if total > 1 {
                lookup.findings.append(
                    DoctorCheck(
                        .familyFound, .creations, .warning, checked: "Family in the store",
                        found: "\(total) families have a name or an admin's name "
                            + "containing \"\(query)\" (listed under \"Families whose name contains\")",
                        action: "run `"
                            + Advice.doctorFamily(
                                store: request.storePath, family: "ID",
                                remote: request.remoteFlags
                            ).command
                            + "` "
                            + "with the id of the one the ticket is about"))
            } else if !FamilyNameSearch.searchable(query) {
                lookup.findings.append(
                    DoctorCheck(
                        .familyFound, .creations, .failure, checked: "Family in the store",
                        found:
                            "no family with id, code or external id \(OutsideText.inline(query)); "
                            + "names are searched with at least \(FamilyNameSearch.shortestQuery) "
                            + "letters or digits",
                        action:
                            "type more of the family's or the admin's name, or give its id, code or external id"
                    ))
            } else {
                lookup.findings.append(
                    DoctorCheck(
                        .familyFound, .creations, .failure, checked: "Family in the store",
                        found: "no family with id, code, external id, or a name or admin's "
                            + "name containing \(query) in \(request.storePath)",
                        action: "check the code (codes are 6 to 8 of A-Z and 0-9), the "
                            + "name's spelling or the store path; see CloudKit below"))
            }
        } catch {
            lookup.findings.append(
                DoctorCheck(
                    .familyFound, .creations, .failure, checked: "Family in the store",
                    found: "\(error.localizedDescription)",
                    action:
                        "run `\(Advice.doctor(store: request.storePath).command)` for the store's health"
                ))
        }
        return lookup
    }

    private func report(
        _ records: FamilyRecords?, _ storeFindings: [DoctorCheck], remote: RemoteFamilyState
    ) -> FamilyReport {
        var findings = storeFindings
        if let records {
            findings += FamilyDiagnosis(records: records, request: request).findings()
        }
        if remote.status != .notAsked {
            findings.append(
                FamilyDiagnosis.remoteFinding(
                    remote, family: records?.family, store: request.storePath,
                    remoteFlags: request.remoteFlags))
        }
        if let app = remote.app {
            findings.append(
                FamilyDiagnosis.appLookupFinding(
                    app, remote: remote, familyID: records?.family.id.rawValue,
                    store: request.storePath, remoteFlags: request.remoteFlags))
        }
        var timeline = records?.events ?? []
        timeline += remote.records.map {
            TimelineEvent(at: $0.modified, source: "cloudkit",
                          what: "\($0.recordType) \($0.recordName) with code \($0.code ?? "none") (\($0.name ?? "no name"))")
        }
        // One order for both sources: CloudKit's times interleave with the store's.
        timeline = TimelineEvent.chronological(timeline)
        let steps = findings.filter { $0.status != .ok }.compactMap(\.action)
        return FamilyReport(
            query: query, store: request.storePath, family: records?.family, timeline: timeline,
            remote: remote,
            findings: findings,
            nextSteps: steps.isEmpty ? ["nothing: the family is complete and in CloudKit"] : steps,
            passed: !findings.contains { $0.status == .failure })
    }

    /// Looks in CloudKit by record name and by code; what was typed stands in for a family not in
    /// the store.
    private func remoteState(_ records: FamilyRecords?) async -> RemoteFamilyState {
        guard case .success(let configuration) = request.remote, configuration.isConfigured else {
            if case .failure(let error) = request.remote {
                return RemoteFamilyState(status: .unavailable, detail: error.localizedDescription)
            }
            return RemoteFamilyState(
                status: .notConfigured,
                detail: "no remote configured (--key-id and --key-file): CloudKit not consulted")
        }
        // The remote checks' probe first: a key CloudKit rejects is named as such, not as a missing
        // family.
        let (checks, state, probed) = await RemoteChecks(
            configuration: request.remote, requestTimeout: request.requestTimeout,
            logger: logger
        ).run()
        guard state == .accepted, let client = probed else {
            let problem = checks.first { $0.status != .ok }?.found ?? "CloudKit cannot be used"
            return RemoteFamilyState(status: .unavailable, detail: problem)
        }
        let named = FamilyQuery(query)
        let recordName =
            records?.family.id.rawValue ?? (named.recordID.count == 36 ? named.recordID : nil)
        let code = records?.family.code ?? FamilyCode.normalised(query)
        var remote = await RemoteFamilyLookup(client: client).lookup(recordName: recordName, code: code)
        if let code { remote.app = await AppCodeLookup.report(code, client: client) }
        return remote
    }
}
