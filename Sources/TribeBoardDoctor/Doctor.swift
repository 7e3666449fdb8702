import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardSupport

/// What `tribeboard doctor` is asked to look at.
package struct DoctorRequest: Sendable {
    package var storePath: String
    /// The folder holding the app's `.xcodeproj`, or the `.xcodeproj`; nil: not checked.
    package var projectPath: String?
    /// Only this Xcode target's container checks (`--target`); nil: every CloudKit target.
    package var target: String?
    /// The toolkit's CloudKit settings, or why they cannot be read.
    package var remote: Result<CloudKitConfiguration, CloudKitConfigurationError>
    /// Where the container setting came from (`--container`, a variable, a file, the default).
    package var containerSource = "the default"
    /// Families waiting for sync longer than this are a failure.
    package var staleAfter: TimeInterval = 24 * 3600
    package var sampleSize = 5
    /// PRAGMA quick_check instead of integrity_check (faster on big stores, skips index contents).
    package var quickIntegrity = false
    package var requestTimeout: Double = 10
    package var now = Date()

    /// The remote's flags for advice that reaches CloudKit (`Advice`); none when not configured.
    var remoteFlags: [String] { (try? remote.get())?.adviceFlags ?? [] }

    package init(
        storePath: String, projectPath: String? = nil,
        remote: Result<CloudKitConfiguration, CloudKitConfigurationError>
    ) {
        self.storePath = storePath
        self.projectPath = projectPath
        self.remote = remote
    }
}

/// The checklist, as data: rendered as text or JSON by the command.
package struct DoctorReport: Sendable, Codable {
    package let store: String
    package let project: String?
    package let checkedAt: String
    package let fallback: FallbackAssessment
    package let summary: DoctorSummary
    /// True when no check failed (exit status 0).
    package let passed: Bool
    package let checks: [DoctorCheck]

    init(request: DoctorRequest, fallback: FallbackAssessment, checks: [DoctorCheck]) {
        store = request.storePath
        project = request.projectPath
        checkedAt = Timestamp(request.now).text
        self.fallback = fallback
        self.checks = DoctorSection.allCases.flatMap { section in
            checks.filter { $0.section == section }
        }
        summary = DoctorSummary(checks)
        passed = summary.failures == 0
    }
}

/// Runs every check. Never throws and never prints: whatever goes wrong is a finding.
package struct Doctor: Sendable {
    let request: DoctorRequest
    let logger: Logger

    package init(request: DoctorRequest, logger: Logger) {
        self.request = request
        self.logger = logger
    }

    /// File and SQLite work runs on a thread of its own, the remote checks are awaited between.
    package func run() async -> DoctorReport {
        let (local, storeState) = await PipelineThread.run { self.localChecks() }
        let (remoteChecks, remoteState) = await remote()
        return await PipelineThread.run {
            self.report(local + remoteChecks, store: storeState, remote: remoteState)
        }
    }

    private func localChecks() -> ([DoctorCheck], StoreState) {
        let toolkit = try? request.remote.get()
        let checks = ContainerChecks(
            projectPath: request.projectPath, targetFilter: request.target,
            toolkit: toolkit.map {
                ToolkitContainer(value: $0.container, source: request.containerSource)
            }
        ).run()
        let (storeChecks, storeState) = StoreChecks(
            path: request.storePath, quickIntegrity: request.quickIntegrity
        ).run()
        return (checks + storeChecks, storeState)
    }

    private func remote() async -> ([DoctorCheck], RemoteState) {
        let (checks, state, client) = await RemoteChecks(
            configuration: request.remote, requestTimeout: request.requestTimeout,
            logger: logger
        ).run()
        guard state == .accepted, let client else { return (checks, state) }
        // The schema probes and the claim type's check side by side: round trips, not CPU.
        async let schema = RemoteSchemaChecks(client: client).run()
        async let claims = ClaimSchemaCheck(client: client).run()
        return (checks + (await schema) + [await claims], state)
    }

    /// The fallback chain and the creation checks (SQLite) on what the others found.
    private func report(
        _ found: [DoctorCheck], store storeState: StoreState, remote remoteState: RemoteState
    ) -> DoctorReport {
        var checks = found
        let (fallback, fallbackCheck) = FallbackChain.assess(store: storeState, remote: remoteState)
        checks.append(fallbackCheck)
        if let store = storeState.store {
            checks += CreationChecks(
                store: store, staleAfter: request.staleAfter, sampleSize: request.sampleSize,
                now: request.now, remoteFlags: request.remoteFlags, logger: logger
            ).run()
        } else {
            checks.append(
                DoctorCheck(
                    .creationsRead, .creations, .warning, checked: "Family creations",
                    found: "not checked: the store cannot be read"))
        }
        for check in checks where check.status != .ok {
            logger.debug(
                "doctor finding",
                metadata: ["check": "\(check.id)", "status": "\(check.status.rawValue)"])
        }
        return DoctorReport(request: request, fallback: fallback, checks: checks)
    }
}
