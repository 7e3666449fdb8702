import ArgumentParser
import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardMigrate

/// `tribeboard migrate claims`: the backfill that gives every Family in the container its code's
/// claim.
struct MigrateClaimsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "claims",
        abstract: "Claim the code of every Family already in the container (the oldest family keeps a shared code); a plan by default.",
        discussion: """
            Families uploaded before code claims existed, or written by an app that does not claim \
            codes, hold no claim: until they do, only their `code` query protects them, and \
            CloudKit's query index lags. This reads every Family, claims each code for its oldest \
            family, and reports families sharing a code (repair them with `tribeboard audit \
            --repair`) and claims that name another family. Nothing existing is overwritten; run \
            it again at any time: it changes nothing that is in place.
            \(exits.help)
            """,
        version: toolkitVersion)

    @OptionGroup(title: "Global options") var global: GlobalOptions
    @OptionGroup(title: "CloudKit") var remoteOptions: RemoteOptions

    @Flag(help: "Create the missing claims. Without it, a plan (lookups only).")
    var apply = false

    @Flag(help: "Print codes in full (masked as AB**** by default).")
    var showCodes = false

    init() {}

    func run() async throws {
        let context = CommandContext(options: global, label: "tribeboard.migrate")
        let client = try MigrationRun.destinationClient(remoteOptions, context: context)
        // Ctrl-C says what stands and how to finish, with the status and kind of a migration's.
        let interrupt = MigrationInterrupt()
        interrupt.install(applying: apply) { [context, apply] _ in
            _ = context.fail(ClaimBackfillInterruption(applying: apply), Self.exits)
        }
        defer { interrupt.remove() }
        let report: ClaimBackfillReport
        do throws(CloudKitError) {
            report = try await ClaimBackfill(client: client, apply: apply, showCodes: showCodes)
                .run()
        } catch {
            throw context.fail(error, Self.exits)
        }
        let remote = client.configuration.adviceFlags
        try context.emit(report) { ClaimBackfillText.render($0, remote: remote) }
        if report.exitKind != .success { throw report.exitKind.exitCode }
    }
}

enum ClaimBackfillText {
    static let listed = 50

    /// `remote`: the run's CloudKit flags. The families are another store's (`STORE`): the one
    /// that provisioned them gives them new codes.
    static func render(_ report: ClaimBackfillReport, remote: [String]) -> String {
        let repair = Advice.repairAll(store: "STORE", remote: remote).command
        let state = report.applied ? "applied" : "plan"
        let claimed = report.applied ? "\(report.claimed) claimed by their oldest family"
            : "\(report.claimed) claimed already, \(report.toClaim) to claim (--apply)"
        var lines = [
            "Code claims (\(state)): \(report.familiesRead) families, \(report.codes) codes; "
                + claimed
        ]
        if !report.duplicates.isEmpty {
            let resync = Advice.resync(store: "STORE", remote: remote).command
            lines.append("Codes held by several families (the oldest keeps it; give the others a new code with "
                + "`\(repair)`, then `\(resync)` to upload it): \(report.duplicates.count)")
            for duplicate in report.duplicates.prefix(listed) {
                lines.append("  \(duplicate.code)  kept by \(duplicate.keptBy); also \(duplicate.others.joined(separator: ", "))")
            }
            if report.duplicates.count > listed {
                lines.append(
                    "  … and \(report.duplicates.count - listed) more (--json lists them all)")
            }
        }
        if !report.heldByOthers.isEmpty {
            lines.append("Claims that are not the oldest family's (another family's, or not made by this key; "
                + "left as they are): \(report.heldByOthers.count)")
            for held in report.heldByOthers.prefix(listed) {
                let where_ = held.holder != "family"
                    ? "not this key's claim (\(held.holder), made by \(held.creator ?? "an unknown creator")): "
                        + "only its creator can change or delete it; give the family a new code with `\(repair)`"
                    : held.holderHasTheCode ? "a newer family with this code"
                    : "a family not in the container (a store that claimed it has not uploaded it yet, or gave it up)"
                lines.append("  \(held.code)  oldest \(held.oldest); claimed by \(held.claimedBy ?? "no family"): \(where_)")
            }
            if report.heldByOthers.count > listed {
                lines.append(
                    "  … and \(report.heldByOthers.count - listed) more (--json lists them all)")
            }
        }
        if !report.withoutCode.isEmpty {
            lines.append("Families without a code (nothing to claim; the audit lists them): \(report.withoutCode.count)")
        }
        if !report.failed.isEmpty {
            lines.append(
                "Claims CloudKit refused or did not answer (run again): \(report.failed.count)")
            for failure in report.failed.prefix(listed) {
                lines.append("  \(failure.family): \(failure.reason)")
            }
        }
        if let problem = report.problem {
            lines.append("CloudKit's answer did not match the request: \(problem)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
