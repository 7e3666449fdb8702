import ArgumentParser
import Foundation
import TribeBoardCases
import TribeBoardCloudKit
import TribeBoardResync
import TribeBoardStore

/// `tribeboard remove FAMILY`: a family leaves CloudKit and the store (a duplicate, a creation
/// that did not complete, a family that asked to leave). A subcommand only (docs/remove.md).
package struct RemoveCommand: PipelineCommand {
    package static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a family from CloudKit and the store: its record, its memberships, its code claim.",
        discussion: """
            FAMILY is the family's record id, code or external id (as recode takes them). A plan \
            unless --apply: then the store records the removal first (resync leaves the family \
            alone from then on), CloudKit's Membership records, Family record and code claims are \
            deleted, then the store's rows, in one transaction. Killed at any moment, the same \
            command run again finishes it. A family with members besides its parent admin needs \
            --force (they leave with it) or `tribeboard merge`. Its code is released: its printed \
            card finds no family. Profiles used by no other family are deleted from the store if \
            they never went up; a profile in CloudKit is the person's and stays.
            \(exits.help)
            """,
        version: toolkitVersion)

    @OptionGroup(title: "Global options") package var global: GlobalOptions
    @OptionGroup(title: "CloudKit") package var remoteOptions: RemoteOptions

    @Argument(
        help: ArgumentHelp("The family's record id, code or external id.", valueName: "family"))
    package var family: String?

    @Option(
        help: ArgumentHelp(
            "A file of families to remove, one record id, code or external id a line.",
            valueName: "file"))
    package var fromFile: String?

    @Flag(help: "Remove (without it, only show the plan).")
    package var apply = false

    @Flag(help: "Remove a family with members besides its parent admin, with them.")
    package var force = false

    @Flag(help: "Print codes in full (masked as AB**** by default).")
    package var showCodes = false

    package init() {}

    package func validate() throws {
        if (family == nil) == (fromFile == nil) {
            throw ValidationError("give one FAMILY, or --from-file FILE.")
        }
        if let family { try FamilyArgument.check(family) }
    }

    package func runPipeline() async throws {
        let context = CommandContext(options: global, label: "tribeboard.remove")
        let families: [String]
        do throws(CaseError) {
            if let family {
                families = [family]
            } else {
                families = try FamilyList.read(fromFile ?? "")
            }
        } catch {
            throw context.fail(error, Self.exits)
        }
        var request = RemoveRequest(storePath: global.store, families: families)
        request.client = try remoteOptions.client(
            policy: RetryPolicy(), context: context, exits: Self.exits)
        let lock = try CaseLock.acquire(
            store: global.store, apply: apply, context: context, exits: Self.exits)
        request.apply = apply
        request.force = force
        request.showCodes = showCodes
        var remover = FamilyRemover(request: request, logger: context.logger)
        let progress = ProgressDisplay(
            quiet: global.quiet || fromFile == nil, logger: context.logger)
        remover.onProgress = { progress.update($0) }
        let report: RemoveReport
        do throws(CaseError) {
            report = try await remover.run()
        } catch {
            throw context.fail(error, Self.exits)
        }
        progress.finish()
        withExtendedLifetime(lock) {}
        try context.emit(report, text: CaseReportText.render)
        // Only work a later try can finish is 75; what app users hold is not.
        if report.unfinished > report.notOurs + report.heldByMembers {
            throw RemoveOutcome.unfinished.exitCode
        }
        if report.heldByMembers > 0 { throw RemoveOutcome.heldByMembers.exitCode }
        if report.notOurs > 0 { throw RemoveOutcome.notOurs.exitCode }
        if report.incomplete { throw RemoveOutcome.refused.exitCode }
    }
}
