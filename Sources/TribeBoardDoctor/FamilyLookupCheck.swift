import Foundation
import TribeBoardXcodeProject

/// Where the app looks family codes up, against where the toolkit writes them: the public
/// database's default zone (the only database a server-to-server key reaches). Only for a project
/// whose code looks families up by code (TribeBoard's); other projects get no line.
struct FamilyLookupCheck {
    static let checked =
        "Where the app looks family codes up (the toolkit writes the public database, _defaultZone)"
    static let guide = "docs/code-claims.md"

    /// The app targets' code (apps and App Clips: they are where a parent types a code).
    static func check(_ facts: [TargetFacts]) -> DoctorCheck? {
        let apps = facts.filter { $0.target.kind == .app || $0.target.kind == .appClip }
        guard let display = apps.first?.display else { return nil }
        let scan = FamilyLookupScan.scan(apps.flatMap(\.codeFiles), display: display)
        guard scan.applies else { return nil }
        if let kit = scan.kitImports.first {
            return DoctorCheck(
                .containerFamilyLookup, .container, .ok, checked: checked,
                found: "the app finds families through the join kit (\(kit.location): "
                    + "import TribeBoardJoinKit), in the public database the toolkit writes",
                locations: [kit.location])
        }
        let lookupFiles = Set(scan.lookups.map(\.location.path))
        let near = { (signals: [FamilyLookupScan.Signal]) in
            let same = signals.filter { lookupFiles.contains($0.location.path) }
            return same.isEmpty ? signals : same
        }
        let privateUses = near(scan.privateDatabase), publicUses = near(scan.publicDatabase)
        let lookups = scan.lookups.map { "\($0.what) (\($0.location))" }.joined(separator: "; ")
        if !publicUses.isEmpty,
            publicUses.first?.location.path == scan.lookups.first?.location.path
                || privateUses.isEmpty
        {
            let use = publicUses[0]
            return DoctorCheck(
                .containerFamilyLookup, .container, .ok, checked: checked,
                found: "\(lookups); the public database is read (\(use.location): \(use.what))",
                locations: [use.location])
        }
        guard !privateUses.isEmpty else {
            return DoctorCheck(
                .containerFamilyLookup, .container, .warning, checked: checked,
                found: "\(lookups); which database it reads cannot be told from the code",
                action:
                    "make sure the lookup reads the public database; the join kit does (\(guide))",
                locations: scan.lookups.map(\.location))
        }
        let reads = privateUses.prefix(6).map { "\($0.what) (\($0.location))" }.joined(
            separator: ", ")
        return DoctorCheck(
            .containerFamilyLookup, .container, .failure, checked: checked,
            found: "\(lookups), in each user's private database: \(reads). The toolkit writes "
                + "families to the public database's _defaultZone, so every provisioned code answers "
                + "\"family not found\" (and a joiner's private database never holds another "
                + "person's family)",
            action: "adopt the join kit: add the package Packages/TribeBoardJoinKit (library "
                + "TribeBoardJoinKit) to the app, `import TribeBoardJoinKit`, and replace the "
                + "private-database lookup with its lookup by code, as \(guide) shows",
            locations: TargetChecks.unique(
                scan.lookups.map(\.location) + privateUses.map(\.location)))
    }
}
