import ArgumentParser
import Foundation
import TribeBoardCloudKit
import TribeBoardDoctor
import TribeBoardSupport

/// Options `doctor` and `doctor family` share, and the request they build.
struct DoctorOptions: ParsableArguments {
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Families waiting for sync longer than this are a failure: 90s, 30m, 24h, 2d (default 24h).",
                               valueName: "duration"),
            transform: StaleAfter.parse)
    var staleAfter: StaleAfter = StaleAfter(seconds: 24 * 3600)

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds to wait for CloudKit's answer (0.1 to 300).", valueName: "seconds"))
    var timeout: Double = 10

    func validate() throws {
        try NumericOption.check(timeout, "--timeout", in: 0.1...300, unit: "seconds")
    }

    func request(global: GlobalOptions, remote: RemoteOptions, project: String? = nil)
        -> DoctorRequest
    {
        // Settings that cannot be read are a finding of the remote checks, not a reason to stop.
        let configuration = Result { () throws(CloudKitConfigurationError) in try remote.resolve() }
        var request = DoctorRequest(
            storePath: global.store, projectPath: project, remote: configuration)
        request.containerSource = CloudKitConfiguration.containerSource(
            remote.overrides, environment: ProcessInfo.processInfo.environment)
        request.staleAfter = staleAfter.seconds
        request.requestTimeout = timeout
        return request
    }
}
