import ArgumentParser
import Foundation
import TribeBoardAudit
import TribeBoardCloudKit

/// `tribeboard recode FAMILY`: a chosen family gets a new code (the newer holder of a shared
/// code, or a code that leaked). A subcommand only: no `tribeboard-recode` executable
/// (docs/recode.md).
package struct RecodeCommand: PipelineCommand {
    package static let configuration = CommandConfiguration(
        commandName: "recode",
        abstract: "Give one family a new code, with its QR code, its manifest line and the command that reprints its card.",
        discussion: """
            FAMILY is the family's record id, code or external id (as doctor family takes them). A \
            dry run unless --apply: then the new code is claimed in CloudKit first when a remote \
            is configured, the store changed in one transaction (resync uploads it), the QR PNG \
            written into --out, and the manifest line replaced or added. The family's printed card \
            stops working once the change is uploaded.
            \(exits.help)
            """,
        version: toolkitVersion)

    @OptionGroup(title: "Global options") package var global: GlobalOptions
    @OptionGroup(title: "CloudKit") package var remoteOptions: RemoteOptions

    @Argument(
        help: ArgumentHelp("The family's record id, code or external id.", valueName: "family"))
    package var family: String

    @Flag(help: "Make the change (without it, only show it).")
    package var apply = false

    @Option(
        help: ArgumentHelp(
            "With --apply: folder for qr/FAMILY_ID.png (created owner-only) and, without "
                + "--manifest, manifest.csv.", valueName: "dir"))
    package var out: String?

    @Option(help: ArgumentHelp("The manifest to update in its own dialect (default: DIR/manifest.csv, written if absent).", valueName: "file"))
    package var manifest: String?

    @Flag(help: "Print codes in full (masked as AB**** by default).")
    package var showCodes = false

    @Flag(help: "Change the store alone: the new code is not claimed in CloudKit now (resync claims it).")
    package var localOnly = false

    package init() {}

    package func validate() throws {
        try FamilyArgument.check(family)
        if apply && (out ?? "").isEmpty {
            throw ValidationError("--apply needs --out DIR for the new QR code.")
        }
        if !apply && (out != nil || manifest != nil) {
            throw ValidationError(
                "--out and --manifest need --apply; without it recode only shows the change.")
        }
    }

    package func runPipeline() async throws {
        let context = CommandContext(options: global, label: "tribeboard.recode")
        var request = RecodeRequest(storePath: global.store, family: family)
        request.outputDirectory = apply ? out : nil
        request.manifest = manifest
        request.showCodes = showCodes
        if apply && !localOnly {
            request.client = try remoteOptions.client(
                policy: RetryPolicy(), context: context, exits: Self.exits)
            if request.client == nil {
                context.logger.notice(
                    "no remote configured: the new code is claimed by the next resync")
            }
        }
        // A plan reaches no CloudKit, but prints the command that uploads the change.
        if !localOnly {
            request.adviceFlags =
                request.client?.configuration.adviceFlags ?? (try? remoteOptions.resolve())?
                .adviceFlags ?? []
        }
        let report: RecodeReport
        do throws(RecodeError) {
            report = try await Recoder(request: request, logger: context.logger).run()
        } catch {
            throw context.fail(error, Self.exits)
        }
        try context.emit(report, text: RecodeReportText.render)
    }
}
