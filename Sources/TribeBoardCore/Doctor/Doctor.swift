import Foundation
import Logging

/// What `tribeboard doctor` is asked to look at.
public struct DoctorRequest: Sendable {
    public var storePath: String
    /// The folder holding the app's `.xcodeproj`, or the `.xcodeproj`; nil: not checked.
    public var projectPath: String?
    /// Only this Xcode target's container checks (`--target`); nil: every CloudKit target.
    public var target: String?
    /// The toolkit's CloudKit settings, or why they cannot be read.
    public var remote: Result<CloudKitConfiguration, CloudKitConfigurationError>
    /// Where the container setting came from (`--container`, a variable, a file, the default).
    public var containerSource = "the default"
    /// Families waiting for sync longer than this are a failure.
    public var staleAfter: TimeInterval = 24 * 3600
    public var sampleSize = 5
    /// PRAGMA quick_check instead of integrity_check (faster on big stores, skips index contents).
    public var quickIntegrity = false
    public var requestTimeout: Double = 10
    public var now = Date()

    public init(storePath: String, projectPath: String? = nil, remote: Result<CloudKitConfiguration, CloudKitConfigurationError>) {
        self.storePath = storePath
        self.projectPath = projectPath
        self.remote = remote
    }
}

/// The checklist, as data: rendered as text or JSON by the command.
public struct DoctorReport: Sendable, Codable {
    public let store: String
    public let project: String?
    public let checkedAt: String
    public let fallback: FallbackAssessment
    public let summary: DoctorSummary
    /// True when no check failed (exit status 0).
    public let passed: Bool
    public let checks: [DoctorCheck]

    init(request: DoctorRequest, fallback: FallbackAssessment, checks: [DoctorCheck]) {
        store = request.storePath
        project = request.projectPath
        checkedAt = StoreTimestamp.format(request.now)
        self.fallback = fallback
        self.checks = DoctorSection.allCases.flatMap { section in checks.filter { $0.section == section } }
        summary = DoctorSummary(checks)
        passed = summary.failures == 0
    }
}

/// Runs every check. Never throws and never prints: whatever goes wrong is a finding.
public struct Doctor: Sendable {
    let request: DoctorRequest
    let logger: Logger

    public init(request: DoctorRequest, logger: Logger) {
        self.request = request
        self.logger = logger
    }

    public func run() async -> DoctorReport {
        let toolkit = try? request.remote.get()
        var checks = ContainerChecks(projectPath: request.projectPath, targetFilter: request.target,
                                     toolkit: toolkit.map { ToolkitContainer(value: $0.container, source: request.containerSource) }).run()
        let (storeChecks, storeState) = StoreChecks(path: request.storePath, quickIntegrity: request.quickIntegrity).run()
        checks += storeChecks
        let (remoteChecks, remoteState, client) = await RemoteChecks(configuration: request.remote, requestTimeout: request.requestTimeout,
                                                                      logger: logger).run()
        checks += remoteChecks
        if remoteState == .accepted, let client {
            checks += await RemoteSchemaChecks(client: client).run()
        }
        let (fallback, fallbackCheck) = FallbackChain.assess(store: storeState, remote: remoteState)
        checks.append(fallbackCheck)
        if let store = storeState.store {
            checks += CreationChecks(store: store, staleAfter: request.staleAfter, sampleSize: request.sampleSize,
                                     now: request.now, logger: logger).run()
        } else {
            checks.append(DoctorCheck("creations.read", .creations, .warning, checked: "Family creations",
                                      found: "not checked: the store cannot be read"))
        }
        for check in checks where check.status != .ok {
            logger.debug("doctor finding", metadata: ["check": "\(check.id)", "status": "\(check.status.rawValue)"])
        }
        return DoctorReport(request: request, fallback: fallback, checks: checks)
    }

    /// For synchronous callers (the command line): runs the checks off the caller's thread.
    public func runBlocking() -> DoctorReport {
        let doctor = self
        if let report = BlockingBridge.wait({ await doctor.run() }) { return report }
        let check = DoctorCheck("doctor.run", .fallback, .failure, checked: "Doctor", found: "the checks did not finish")
        return DoctorReport(request: request, fallback: FallbackAssessment(mode: .inMemory, reason: .storeUnusable, explanation: "unknown"),
                            checks: [check])
    }
}
