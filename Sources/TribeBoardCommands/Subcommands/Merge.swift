import ArgumentParser
import Foundation
import TribeBoardCases
import TribeBoardCloudKit
import TribeBoardResync
import TribeBoardStore

/// `tribeboard merge DUPLICATE --into KEPT`: a family registered twice becomes one. A subcommand
/// only (docs/merge.md).
package struct MergeCommand: PipelineCommand {
    package static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge a family registered twice into the one that stays: its members move, then it is removed.",
        discussion: """
            DUPLICATE and KEPT are record ids, codes or external ids (as recode takes them). A \
            plan unless --apply: then the duplicate's members (those in the store and those who \
            joined it in the app) get a membership in the kept family (a person already there is \
            not added twice; the duplicate's admin, when it is the kept family's admin registered \
            again, is not moved, and anyone else who was its admin becomes an adult: one parent \
            admin), then the duplicate is removed as `tribeboard remove` does. Its code is \
            released: its printed card finds no family; print the kept family's card for its \
            members. Run again after a kill: it finishes.
            \(exits.help)
            """,
        version: toolkitVersion)

    @OptionGroup(title: "Global options") package var global: GlobalOptions
    @OptionGroup(title: "CloudKit") package var remoteOptions: RemoteOptions

    @Argument(
        help: ArgumentHelp(
            "The family registered twice: its record id, code or external id.",
            valueName: "duplicate"))
    package var duplicate: String

    @Option(help: ArgumentHelp("The family that stays.", valueName: "kept"))
    package var into: String

    @Flag(help: "Merge (without it, only show the plan).")
    package var apply = false

    @Flag(help: "Print codes in full (masked as AB**** by default).")
    package var showCodes = false

    package init() {}

    package func validate() throws {
        try FamilyArgument.check(duplicate, into)
    }

    package func runPipeline() async throws {
        let context = CommandContext(options: global, label: "tribeboard.merge")
        var request = MergeRequest(storePath: global.store, duplicate: duplicate, kept: into)
        request.client = try remoteOptions.client(policy: RetryPolicy(), context: context, exits: Self.exits)
        let lock = try CaseLock.acquire(store: global.store, apply: apply, context: context, exits: Self.exits)
        request.apply = apply
        request.showCodes = showCodes
        let report: MergeReport
        do throws(CaseError) {
            report = try await FamilyMerger(request: request, logger: context.logger).run()
        } catch {
            throw context.fail(error, Self.exits)
        }
        withExtendedLifetime(lock) {}
        try context.emit(report, text: CaseReportText.render)
        if (report.removal?.unfinished ?? 0) > 0 { throw MergeOutcome.unfinished.exitCode }
    }
}
