import ArgumentParser
import Foundation
import TribeBoardCases
import TribeBoardCloudKit
import TribeBoardResync
import TribeBoardStore

/// `tribeboard adopt FAMILY`: the store takes CloudKit's version of a family resync set aside.
/// A subcommand only (docs/adopt.md).
package struct AdoptCommand: PipelineCommand {
    package static let configuration = CommandConfiguration(
        commandName: "adopt",
        abstract: "Take CloudKit's version of a quarantined or conflicting family into the store, and end its set-aside.",
        discussion: """
            FAMILY is the family's record id, code or external id (as recode takes them). A plan \
            unless --apply: then the family's name, code and members become CloudKit's, in one \
            transaction, its quarantine or conflict ends, and a changed code comes with the \
            command that reprints its card.
            \(exits.help)
            """,
        version: toolkitVersion)

    @OptionGroup(title: "Global options") package var global: GlobalOptions
    @OptionGroup(title: "CloudKit") package var remoteOptions: RemoteOptions

    @Argument(
        help: ArgumentHelp("The family's record id, code or external id.", valueName: "family"))
    package var family: String

    @Flag(help: "Adopt (without it, only show both versions).")
    package var apply = false

    @Flag(help: "Print codes in full (masked as AB**** by default).")
    package var showCodes = false

    package init() {}

    package func validate() throws {
        try FamilyArgument.check(family)
    }

    package func runPipeline() async throws {
        let context = CommandContext(options: global, label: "tribeboard.adopt")
        let client = try remoteOptions.client(policy: RetryPolicy(), context: context, exits: Self.exits)
        let lock = try CaseLock.acquire(store: global.store, apply: apply, context: context, exits: Self.exits)
        guard let client else { throw context.fail(CaseError.remoteNeeded(familyID: family), Self.exits) }
        var request = AdoptRequest(storePath: global.store, family: family, client: client)
        request.apply = apply
        request.showCodes = showCodes
        let report: AdoptReport
        do throws(CaseError) {
            report = try await FamilyAdopter(request: request, logger: context.logger).run()
        } catch {
            throw context.fail(error, Self.exits)
        }
        withExtendedLifetime(lock) {}
        try context.emit(report, text: CaseReportText.render)
    }
}
