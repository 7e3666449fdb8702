import ArgumentParser
import Foundation
import TribeBoardDoctor

/// `tribeboard doctor family CODE_OR_ID`: one family across the store and CloudKit.
struct DoctorFamilyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "family",
        abstract: "Show one family's timeline across the store and CloudKit, and what to do next.",
        discussion: """
            CODE_OR_ID is the family's code, its record id (UUID) or the external id it was provisioned with.
            \(exits.help)
            """,
        version: toolkitVersion)

    @OptionGroup(title: "Global options") var global: GlobalOptions
    @OptionGroup(title: "CloudKit") var remoteOptions: RemoteOptions
    @OptionGroup(title: "Doctor") var doctorOptions: DoctorOptions

    @Argument(
        help: ArgumentHelp("The family's code, record id or external id.", valueName: "code-or-id"))
    var family: String

    func validate() throws {
        try FamilyArgument.check(family)
    }

    func run() async throws {
        let context = CommandContext(options: global, label: "tribeboard.doctor")
        let request = doctorOptions.request(global: global, remote: remoteOptions)
        let report = await FamilyDoctor(request: request, query: family, logger: context.logger)
            .run()
        try context.emit(report, text: DoctorReportText.render)
        if !report.passed {
            context.stopped(because: StopReasons.failures(report.findings))
            throw FindingsOutcome.failing.exitCode
        }
    }
}
