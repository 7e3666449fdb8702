import Foundation
import TribeBoardCloudKit
import TribeBoardRemote

/// Section 4, continued: the container can hold code claims (`CodeClaim`, docs/code-claims.md),
/// and nobody can list them. A claim's name is the hash of its code: whoever lists the claims
/// finds every code behind them in minutes (six characters), and with it every family to join.
/// Every query that could list them must fail: unfiltered (`___recordID` QUERYABLE, the index
/// Apple's Console guide adds to browse records), by creation time (`___createTime`), by
/// `family`. "Not marked queryable" (or "not marked indexable") is the expected answer; any
/// result, even an empty page, means the type can be listed: a failure in production.
struct ClaimSchemaCheck {
    static let id = DoctorCheckID.remoteSchemaFamilyCodeClaim
    let client: CloudKitClient

    /// The queries tried, each with the index that lets it through.
    static let probes: [(index: String, filters: [CloudKitFilter])] = [
        ("___recordID", []),
        ("___createTime", [.after("___createTime", milliseconds: 0)]),
        (CodeClaim.familyField, [.equals(CodeClaim.familyField, "")]),
    ]

    func run() async -> DoctorCheck {
        let checked = "\(CodeClaim.recordType) exists and cannot be listed"
        var listable: [String] = []
        var unchecked: CloudKitError?
        for probe in Self.probes {
            do {
                _ = try await client.query(
                    CloudKitQuery(recordType: CodeClaim.recordType, filterBy: probe.filters),
                    resultsLimit: 1)
                listable.append(probe.index)
            } catch {
                switch error {
                case .schema(.notQueryable, _), .schema(.notIndexable, _): continue
                case .schema(.missingType, _): return verdict(error, checked: checked)
                default:
                    if error.category == .configuration { return verdict(error, checked: checked) }
                    unchecked = unchecked ?? error
                }
            }
        }
        guard listable.isEmpty else { return listed(by: listable, checked: checked) }
        if let unchecked { return verdict(unchecked, checked: checked) }
        return DoctorCheck(
            Self.id, .remote, .ok, checked: checked,
            found: "yes (no index: claims are read by name only)")
    }

    /// Some query answered: a failure in production, a warning in development (where a claim
    /// written without the schema file makes every field queryable until it is imported).
    private func listed(by indexes: [String], checked: String) -> DoctorCheck {
        let production = client.configuration.environment == .production
        let names = indexes.map { "`\($0)`" }.joined(separator: ", ")
        return DoctorCheck(
            Self.id, .remote, production ? .failure : .warning, checked: checked,
            found: "claims can be listed by a query (QUERYABLE: \(names)): whoever can query "
                + "can list them, and the codes behind their names",
            action: "remove the QUERYABLE index\(indexes.count == 1 ? "" : "es") \(names) "
                + "from \(CodeClaim.recordType) in the CloudKit Console (Schema > Indexes)"
                + "\(production ? " and deploy" : ""); the toolkit reads claims by name only")
    }

    private func verdict(_ error: CloudKitError, checked: String) -> DoctorCheck {
        let text = error.localizedDescription
        if case .schema(.missingType, _) = error {
            guard client.configuration.environment == .production else {
                return DoctorCheck(
                    Self.id, .remote, .warning, checked: checked,
                    found: "no \(CodeClaim.recordType) type yet: development creates it "
                        + "on the first claim, with default security roles",
                    action: "import Templates/cloudkit-schema.ckdb so the type has the roles "
                        + "the app needs (`_icloud` reads and creates)")
            }
            return DoctorCheck(Self.id, .remote, .failure, checked: checked, found: text,
                               action: "deploy \(CodeClaim.recordType) to production (import "
                                + "Templates/cloudkit-schema.ckdb into development, then Schema > Deploy Schema "
                                + "Changes): without it no family can go up")
        }
        if error.category == .configuration {
            return DoctorCheck(
                Self.id, .remote, .failure, checked: checked, found: text,
                action: "the found text names the fix")
        }
        return DoctorCheck(
            Self.id, .remote, .warning, checked: checked, found: "not checked: \(text)",
            action: "run doctor again later")
    }
}
