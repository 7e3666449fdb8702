import ArgumentParser
import Foundation
import TribeBoardDoctor

/// `tribeboard doctor`: the checklist support staff run first.
package struct DoctorCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the app's container configuration, the store, the remote and stuck family creations.",
        discussion: """
            Each line is ok, warning or failure, with what was checked, what was found and what to \
            do. Failures break creation or sync (an identifier mismatch, a missing or damaged \
            store, a key CloudKit rejects); warnings only degrade them. Changes nothing: the store \
            is opened read-only.
            `tribeboard doctor family CODE_OR_ID` shows one family's timeline.
            \(exits.help)
            """,
        version: toolkitVersion,
        subcommands: [DoctorFamilyCommand.self])

    @OptionGroup(title: "Global options") package var global: GlobalOptions
    @OptionGroup(title: "CloudKit") package var remoteOptions: RemoteOptions
    @OptionGroup(title: "Doctor") var doctorOptions: DoctorOptions

    @Option(
        help: ArgumentHelp(
            "The app's Xcode project: the folder holding the .xcodeproj, or the .xcodeproj.",
            valueName: "path"))
    package var project: String?

    @Option(
        help: ArgumentHelp(
            "Check only this Xcode target (an app, extension, watch app or App Clip); "
                + "default: every target using iCloud or CloudKit.",
            valueName: "name"))
    package var target: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Families to show for each finding about many (the rest are counted).", valueName: "n"))
    package var sample: Int = 5

    @Flag(help: "PRAGMA quick_check instead of integrity_check: faster on a big store, skips index contents.")
    var quick = false

    @Option(help: ArgumentHelp("Exit 1 on failures only (default), or on warnings too (a monitoring job that must hear of CloudKit unreachable).",
                               valueName: "failure|warning"))
    var failOn: FailOn = .failure

    enum FailOn: String, ExpressibleByArgument, CaseIterable {
        case failure, warning
    }

    package init() {}

    package func validate() throws {
        try NumericOption.check(sample, "--sample", in: 0...1000)
        if target != nil, project == nil { throw ValidationError("--target needs --project.") }
    }

    package func run() async throws {
        let context = CommandContext(options: global, label: "tribeboard.doctor")
        var request = doctorOptions.request(global: global, remote: remoteOptions, project: project)
        request.target = target
        request.sampleSize = sample
        request.quickIntegrity = quick
        let report = await Doctor(request: request, logger: context.logger).run()
        try context.emit(report, text: DoctorReportText.render)
        if !report.passed {
            context.stopped(because: StopReasons.of(report))
            throw FindingsOutcome.failing.exitCode
        }
        if failOn == .warning, report.checks.contains(where: { $0.status == .warning }) {
            context.stopped(
                because: report.checks.filter { $0.status == .warning }.map {
                    "warning: \($0.checked): \($0.found)"
                })
            throw FindingsOutcome.failing.exitCode
        }
    }
}
