import ArgumentParser
import Foundation
import Logging
import TribeBoardCloudKit

/// The CloudKit options every command that talks to the remote takes. Flags win over
/// `TRIBEBOARD_CK_*` variables, which win over the config file.
package struct RemoteOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "CloudKit container (env TRIBEBOARD_CK_CONTAINER; "
                + "default \(CloudKitConfiguration.defaultContainer)).", valueName: "id"))
    var container: String?

    @Option(
        help: ArgumentHelp(
            "development or production (env TRIBEBOARD_CK_ENVIRONMENT).", valueName: "name"))
    var environment: String?

    @Option(help: ArgumentHelp("public, the only database a server-to-server key reaches (env TRIBEBOARD_CK_DATABASE).", valueName: "name"))
    var database: String?

    @Option(
        help: ArgumentHelp("Server-to-server key id (env TRIBEBOARD_CK_KEY_ID).", valueName: "id"))
    var keyID: String?

    @Option(
        help: ArgumentHelp(
            "PEM private key, mode 600 (env TRIBEBOARD_CK_KEY_FILE).", valueName: "file"))
    var keyFile: String?

    @Option(
        name: .customLong("ck-base-url"),
        help: ArgumentHelp(
            "Web Services base URL, e.g. an emulator's (env TRIBEBOARD_CK_BASE_URL).",
            valueName: "url"))
    var baseURL: String?

    @Option(
        name: .customLong("ck-config"),
        help: ArgumentHelp(
            "A key = value settings file (env TRIBEBOARD_CK_CONFIG; see Templates/cloudkit.conf).",
            valueName: "file"))
    var configFile: String?

    package init() {}

    func resolve() throws(CloudKitConfigurationError) -> CloudKitConfiguration {
        try CloudKitConfiguration.resolve(
            overrides, environment: ProcessInfo.processInfo.environment)
    }

    var overrides: CloudKitConfiguration.Overrides {
        var overrides = CloudKitConfiguration.Overrides()
        overrides.container = container
        overrides.environment = environment
        overrides.database = database
        overrides.keyID = keyID
        overrides.keyFile = keyFile
        overrides.baseURL = baseURL
        overrides.configFile = configFile
        return overrides
    }

    /// A client when a remote is configured, nil when the command is to work offline.
    func client(policy: RetryPolicy, logger: Logger) throws(CloudKitConfigurationError)
        -> CloudKitClient?
    {
        let configuration = try resolve()
        guard configuration.isConfigured else { return nil }
        return try CloudKitClient(configuration: configuration, policy: policy, logger: logger)
    }

    /// The same, or the run's end with the configuration's error (its status from `exits`).
    func client(policy: RetryPolicy, context: CommandContext,
                exits: CommandExits) throws -> CloudKitClient? {
        do throws(CloudKitConfigurationError) {
            return try client(policy: policy, logger: context.logger)
        } catch {
            throw context.fail(error, exits)
        }
    }
}
