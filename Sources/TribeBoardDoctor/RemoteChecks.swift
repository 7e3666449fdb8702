import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardSupport

/// What the remote checks concluded, for the fallback chain.
enum RemoteState: Equatable {
    case notConfigured
    /// Settings or key file unusable: nothing could be sent.
    case misconfigured(String)
    case unreachable(String)
    /// Reached, but the service asked to come back later.
    case busy(String)
    case rejected(String)
    case accepted
}

/// Section 4: the configured remote answers users/caller with our key, the clocks agree, the key
/// file is private, and which container, environment and database are in use.
struct RemoteChecks {
    /// CloudKit does not publish its tolerance; the emulator refuses beyond 300 s, as common
    /// practice does.
    static let skewWarning = 30.0
    static let skewFailure = 300.0

    let configuration: Result<CloudKitConfiguration, CloudKitConfigurationError>
    let requestTimeout: Double
    let logger: Logger

    func run() async -> (checks: [DoctorCheck], state: RemoteState, client: CloudKitClient?) {
        let configuration: CloudKitConfiguration
        switch self.configuration {
        case .failure(let error):
            return (
                [
                    DoctorCheck(
                        .remoteConfiguration, .remote, .failure, checked: "CloudKit settings",
                        found: error.localizedDescription,
                        action:
                            "fix the setting named (flags, TRIBEBOARD_CK_* variables or the --ck-config file)"
                    )
                ],
                .misconfigured(error.localizedDescription), nil
            )
        case .success(let value):
            configuration = value
        }
        let environment = environmentCheck(configuration)
        guard configuration.isConfigured else {
            let check = DoctorCheck(
                .remoteConfiguration, .remote, .warning, checked: "CloudKit settings",
                found: "no remote configured: codes are checked in the local store only "
                    + "and records wait for resync",
                action: "set --key-id and --key-file (or TRIBEBOARD_CK_KEY_ID and "
                    + "TRIBEBOARD_CK_KEY_FILE) to a server-to-server key")
            return ([check, environment], .notConfigured, nil)
        }
        var checks = [DoctorCheck(.remoteConfiguration, .remote, .ok, checked: "CloudKit settings",
                                  found: "key id \(configuration.keyID.map { String($0.prefix(8)) + "…" } ?? "none")"),
                      environment]
        var signer: CloudKitSigner?
        if let keyID = configuration.keyID, let keyFile = configuration.keyFile {
            let (check, made) = keyFileCheck(keyID: keyID, keyFile: keyFile)
            checks.append(check)
            guard let made else { return (checks, .misconfigured(check.found), nil) }
            signer = made
        }
        // Up to 4 requests at once: the schema probes go side by side (one attempt each, as
        // before).
        let client = CloudKitClient(
            configuration: configuration, signer: signer, policy: RetryPolicy(maxAttempts: 1),
            requestTimeout: requestTimeout, logger: logger)
        let probe = await client.probeCaller()
        let (answerChecks, state) = Self.interpret(probe)
        return (checks + answerChecks, state, client)
    }

    private func environmentCheck(_ configuration: CloudKitConfiguration) -> DoctorCheck {
        let service =
            configuration.baseURL == CloudKitConfiguration.defaultBaseURL
            ? "Apple's service"
            : "\(configuration.displayBaseURL) (not Apple's service: an emulator?)"
        let note =
            configuration.environment == .development
            ? "; the App Store build of the app reads production" : ""
        return DoctorCheck(
            .remoteEnvironment, .remote, .ok, checked: "Container, environment and database in use",
            found: "\(configuration.container), \(configuration.environment.rawValue), "
                + "\(configuration.database.rawValue) database, \(service)\(note)")
    }

    /// The signer refuses a key others can read; doctor says so before anything is sent.
    private func keyFileCheck(keyID: String, keyFile: String) -> (DoctorCheck, CloudKitSigner?) {
        let checked = "Key file \(keyFile)"
        do {
            let signer = try CloudKitSigner(keyID: keyID, keyFile: keyFile)
            var info = stat()
            let mode = stat(keyFile, &info) == 0 ? String(info.st_mode & 0o777, radix: 8) : "?"
            return (
                DoctorCheck(
                    .remoteKeyFile, .remote, .ok, checked: checked,
                    found: "a P-256 key, mode \(mode)"), signer
            )
        } catch {
            let action: String
            switch error {
            case .keyFilePermissions: action = "chmod 600 \(keyFile)"
            case .invalidKey: action = "point --key-file at the PEM P-256 private key whose public half is registered in the CloudKit Dashboard"
            default: action = "check --key-file (or TRIBEBOARD_CK_KEY_FILE): the file must exist and be readable by this user"
            }
            return (
                DoctorCheck(
                    .remoteKeyFile, .remote, .failure, checked: checked,
                    found: error.localizedDescription, action: action), nil
            )
        }
    }

    static func interpret(_ probe: CloudKitProbe) -> ([DoctorCheck], RemoteState) {
        let milliseconds = Int(probe.seconds * 1000)
        switch probe.result {
        case .success(let caller):
            return ([reachable(milliseconds),
                     DoctorCheck(.remoteKey, .remote, .ok, checked: "Key accepted (users/caller)",
                                 found: "accepted, caller \(caller.userRecordName)"),
                     clockCheck(probe, rejected: false)], .accepted)
        case .failure(let error) where error.category == .network:
            let check = DoctorCheck(
                .remoteReachable, .remote, .warning, checked: "CloudKit reachable",
                found: error.localizedDescription,
                action:
                    "check the network, proxy and --ck-base-url; commands meanwhile work local-only and exit 75"
            )
            return ([check], .unreachable(error.localizedDescription))
        case .failure(let error) where error.isUnusableAnswer && error.category == .transient:
            // Not busy: what answered does not speak CloudKit (a proxy, a broken endpoint).
            let check = DoctorCheck(
                .remoteKey, .remote, .failure, checked: "Key accepted (users/caller)",
                found: "the answer is not CloudKit's: \(error.localizedDescription)",
                action: "check --ck-base-url and any proxy in between; commands meanwhile exit 75")
            return ([reachable(milliseconds), check], .unreachable(error.localizedDescription))
        case .failure(let error) where error.category == .transient:
            let check = DoctorCheck(
                .remoteKey, .remote, .warning, checked: "Key accepted (users/caller)",
                found: "not checked, the service is busy: \(error.localizedDescription)",
                action: "run doctor again later")
            return (
                [reachable(milliseconds), check, clockCheck(probe, rejected: false)],
                .busy(error.localizedDescription)
            )
        case .failure(let error):
            var action =
                "register this key's public half in the CloudKit Dashboard for this container "
                + "and environment, and check --key-id"
            if let skew = probe.clockSkew, abs(skew) > skewWarning {
                action = "set the machine's clock (NTP): it is \(Int(skew.rounded())) s from the server's, "
                    + "then run doctor again"
            }
            let check = DoctorCheck(
                .remoteKey, .remote, .failure, checked: "Key accepted (users/caller)",
                found: "rejected: \(error.localizedDescription)", action: action)
            return (
                [reachable(milliseconds), check, clockCheck(probe, rejected: true)],
                .rejected(error.localizedDescription)
            )
        }
    }

    private static func reachable(_ milliseconds: Int) -> DoctorCheck {
        DoctorCheck(
            .remoteReachable, .remote, .ok, checked: "CloudKit reachable",
            found: "answered in \(milliseconds) ms")
    }

    /// Signatures carry our clock; a server that disagrees by minutes refuses every request.
    static func clockCheck(_ probe: CloudKitProbe, rejected: Bool) -> DoctorCheck {
        let checked = "Clock skew against the server's Date header"
        guard let skew = probe.clockSkew else {
            return DoctorCheck(
                .remoteClock, .remote, .warning, checked: checked,
                found: "the server sent no Date header: not measured")
        }
        let seconds = Int(skew.rounded())
        let found = abs(skew) < 1.5 ? "within a second"
            : "the server's clock is \(abs(seconds)) s \(seconds > 0 ? "ahead of" : "behind") this machine's"
        if abs(skew) > skewFailure {
            return DoctorCheck(.remoteClock, .remote, .failure, checked: checked, found: found + ": signed requests are refused",
                               action: "synchronise this machine's clock (timedatectl set-ntp true)")
        }
        if abs(skew) > skewWarning {
            return DoctorCheck(
                .remoteClock, .remote, rejected ? .failure : .warning, checked: checked,
                found: found,
                action:
                    "synchronise this machine's clock (timedatectl set-ntp true) before it drifts further"
            )
        }
        return DoctorCheck(.remoteClock, .remote, .ok, checked: checked, found: found)
    }
}
