import Foundation
import TribeBoardCloudKit
import TribeBoardSupport

/// What a run that stopped prints on stderr, once, as an error (also with `-q`): the cause, what
/// was tried (the store; for CloudKit the container, environment, endpoint, settings file and key
/// id) and the command to run next. Cron mails it whole; a person reads one block, not the reason
/// twice.
struct ErrorBlock: Equatable {
    var cause: String
    var tried: [Line] = []
    /// A command that runs as printed in the situation that printed it.
    var next: String?

    struct Line: Equatable {
        let label: String
        let value: String
    }

    /// The block's lines after the first (`tribeboard: error: CAUSE`), indented under it.
    var detailLines: [String] {
        let rows = tried + (next.map { [Line(label: "next", value: $0)] } ?? [])
        let width = rows.map(\.label.count).max() ?? 0
        return rows.map {
            "  \($0.label):" + String(repeating: " ", count: width - $0.label.count + 1) + $0.value
        }
    }
}

/// The remote a run reached for, as the error block names it.
struct RemoteAttempt {
    let store: String
    let configuration: CloudKitConfiguration
    /// The settings file the run read (`--ck-config` or `TRIBEBOARD_CK_CONFIG`), if any.
    let configFile: String?

    init(store: String, configuration: CloudKitConfiguration, options: RemoteOptions) {
        self.store = store
        self.configuration = configuration
        self.configFile = options.configFilePath
    }

    var lines: [ErrorBlock.Line] {
        var lines = [
            ErrorBlock.Line(label: "store", value: store),
            .init(
                label: "container",
                value: "\(configuration.container) (\(configuration.environment.rawValue), "
                    + "\(configuration.database.rawValue) database)"),
            .init(label: "endpoint", value: configuration.displayBaseURL)
        ]
        lines.append(
            .init(
                label: "settings",
                value: configFile ?? "none read (flags and TRIBEBOARD_CK_* variables)"))
        if let keyID = configuration.keyID { lines.append(.init(label: "key id", value: keyID)) }
        if let keyFile = configuration.keyFile {
            lines.append(.init(label: "key file", value: keyFile))
        }
        return lines
    }

    /// The options that reach the same remote from any shell, whatever cron's environment held:
    /// the settings file, and as flags what flags or TRIBEBOARD_CK_* variables set over it (or,
    /// without a file, every setting that is not the default), so the command runs as printed.
    func remoteArguments(
        _ options: RemoteOptions,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        let opt = ShellWords.option
        var arguments = opt("--store", store)
        if let configFile { arguments += opt("--ck-config", configFile) }
        func given(_ flag: String?, _ variable: String) -> Bool {
            configFile == nil || flag != nil || environment["TRIBEBOARD_CK_\(variable)"] != nil
        }
        if given(options.container, "CONTAINER"),
            configuration.container != CloudKitConfiguration.defaultContainer || configFile != nil
        {
            arguments += opt("--container", configuration.container)
        }
        if given(options.environment, "ENVIRONMENT") {
            arguments += opt("--environment", configuration.environment.rawValue)
        }
        if let keyID = configuration.keyID, given(options.keyID, "KEY_ID") {
            arguments += opt("--key-id", keyID)
        }
        if let keyFile = configuration.keyFile, given(options.keyFile, "KEY_FILE") {
            arguments += opt("--key-file", keyFile)
        }
        if given(options.baseURL, "BASE_URL"),
            configuration.baseURL != CloudKitConfiguration.defaultBaseURL || configFile != nil,
            configuration.displayBaseURL == configuration.baseURL
        {
            arguments += opt("--ck-base-url", configuration.baseURL)
        }
        return arguments
    }

    /// `tribeboard doctor` over the same store and remote: it says whether the key is accepted,
    /// the container reachable and the schema in place.
    func doctorCommand(_ options: RemoteOptions) -> String {
        ShellWords.command(["tribeboard", "doctor"] + remoteArguments(options))
    }
}

extension RemoteOptions {
    /// The settings file a run reads, if any.
    /// Absolute: the block's next command runs from any folder.
    var configFilePath: String? {
        (configFile ?? ProcessInfo.processInfo.environment["TRIBEBOARD_CK_CONFIG"]).map {
            AbsolutePath.of($0)
        }
    }
}

extension CommandContext {
    /// Prints `block` on stderr as one error, whatever -q says.
    func report(_ block: ErrorBlock) {
        Terminal.clearProgressLine()
        let first = StderrLogHandler.prefix(.error) + OutsideText.inline(block.cause, limit: 2000)
        let rest = block.detailLines.map { OutsideText.inline($0, limit: 2000) }
        Terminal.writeError(([first] + rest).joined(separator: "\n") + "\n")
    }
}

extension CloudKitError {
    /// CloudKit refused the request's credentials (AUTHENTICATION_FAILED or _REQUIRED).
    var refusesKey: Bool {
        switch self {
        case .service(let code, _, _, _):
            return code == .authenticationFailed || code == .authenticationRequired
        case .gaveUp(_, let last): return last.refusesKey
        default: return false
        }
    }
}
