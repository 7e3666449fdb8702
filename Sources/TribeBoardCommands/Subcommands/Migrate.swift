import ArgumentParser
import Foundation
import TribeBoardCloudKit
import TribeBoardMigrate
import TribeBoardSupport

/// `tribeboard migrate`: moves families off the legacy record types, or out of another container.
package struct MigrateCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move families off the legacy CK* record types, or from another container, resumably and verified.",
        discussion: """
            `migrate legacy-types` copies every CKFamily, CKUserProfile and CKMembership record of \
            the configured container to the current types; `migrate container --from-container ID` \
            copies every TribeBoard record of another container's public database here; `migrate \
            claims` claims the code of every Family already in the container \
            (docs/code-claims.md). A plan by default; --apply writes.
            \(exits.help)
            """,
        version: toolkitVersion,
        subcommands: [
            MigrateLegacyTypesCommand.self, MigrateContainerCommand.self, MigrateClaimsCommand.self
        ])

    package init() {}
}

/// The options both migrations take.
struct MigrateOptions: ParsableArguments {
    @Flag(help: "Write: copy the records, teach the store, verify. Without it, a plan.")
    var apply = false

    @Option(
        help: ArgumentHelp(
            "A family whose code an older family holds at the destination, or that is not "
                + "in the wire format: repair (a new code) or report (listed, not migrated).",
            valueName: "policy"))
    var onCodeConflict: CodeConflictPolicy = .repair

    @Option(
        help: ArgumentHelp(
            "With --apply: folder for the QR codes of re-coded families (qr/FAMILY_ID.png) "
                + "and their new codes in full (new-codes.csv), owner-only.", valueName: "dir"))
    var out: String?

    @Flag(help: "Print the report as CSV, one row per source record.")
    var csv = false

    @Flag(help: "Print codes in full (masked as AB**** by default).")
    var showCodes = false

    package init() {}

    func check(global: GlobalOptions) throws {
        if csv && global.json {
            throw ValidationError("--csv and --json contradict each other; pick one.")
        }
        if apply && onCodeConflict == .repair && (out ?? "").isEmpty {
            throw ValidationError("--apply needs --out DIR for the QR codes of families given a new code (or --on-code-conflict report).")
        }
    }

    func request(_ mode: MigrationMode, global: GlobalOptions) -> MigrationRequest {
        var request = MigrationRequest(mode: mode, storePath: global.store)
        request.apply = apply
        request.onCodeConflict = onCodeConflict
        request.outputDirectory = out
        request.showCodes = showCodes
        return request
    }
}

extension CodeConflictPolicy: ExpressibleByArgument {}

/// `tribeboard migrate legacy-types`.
struct MigrateLegacyTypesCommand: PipelineCommand {
    package static let configuration = CommandConfiguration(
        commandName: "legacy-types",
        abstract: "Copy every CKFamily, CKUserProfile and CKMembership record to the current types (new names derived from the old).",
        discussion: "Exit status as `tribeboard migrate`.",
        version: toolkitVersion)

    @OptionGroup(title: "Global options") package var global: GlobalOptions
    @OptionGroup(title: "CloudKit") package var remoteOptions: RemoteOptions
    @OptionGroup(title: "Migration") var options: MigrateOptions
    // Same title: the help lists it in the MIGRATION section with the others.
    @OptionGroup(title: "Migration") var legacy: LegacyTypesOptions

    package init() {}

    package func validate() throws {
        try options.check(global: global)
        if legacy.deleteSource && !options.apply {
            throw ValidationError("--delete-source needs --apply.")
        }
        if !legacy.keepSource.isEmpty && !legacy.deleteSource {
            throw ValidationError("--keep-source needs --delete-source.")
        }
        if legacy.keepSource.contains(where: \.isEmpty) {
            throw ValidationError("--keep-source needs a record name.")
        }
    }


    /// The migration pipeline (SQLite, QR files) blocks: it runs on a thread of its own
    /// (`PipelineThread`).
    package func runPipeline() async throws {
        let context = CommandContext(options: global, label: "tribeboard.migrate")
        let client = try MigrationRun.destinationClient(remoteOptions, context: context)
        var request = options.request(.legacyTypes, global: global)
        request.deleteSource = legacy.deleteSource
        request.keepSource = Set(legacy.keepSource)
        try await MigrationRun(context: context, options: options).execute(
            request, MigrationEndpoints(source: client, destination: client))
    }
}

/// What only `legacy-types` takes.
struct LegacyTypesOptions: ParsableArguments, Sendable {
    @Flag(help: "With --apply: delete the legacy records once every copy is verified.")
    var deleteSource = false

    @Option(
        help: ArgumentHelp(
            "With --delete-source: leave this legacy record where it is (repeatable), e.g. an invalid one an app user still owns; "
                + "the family and profile a kept membership references are kept too.",
            valueName: "record-name"))
    var keepSource: [String] = []
}

/// `tribeboard migrate container`.
struct MigrateContainerCommand: PipelineCommand {
    package static let configuration = CommandConfiguration(
        commandName: "container",
        abstract: "Copy every TribeBoard record (current and legacy types) from another container's public database, under the same names.",
        discussion: """
            The source has its own settings, each defaulting to the destination's: a \
            server-to-server key belongs to one container. A record already at the destination and \
            identical is done; a different one is a conflict, reported and never overwritten. Exit \
            status as `tribeboard migrate`.
            """,
        version: toolkitVersion)

    @OptionGroup(title: "Global options") package var global: GlobalOptions
    @OptionGroup(title: "CloudKit (the destination)") package var remoteOptions: RemoteOptions
    @OptionGroup(title: "Migration") var options: MigrateOptions

    @Option(
        help: ArgumentHelp(
            "The container to copy from, e.g. iCloud.com.tribeboard.TribeBoard.", valueName: "id"))
    var fromContainer: String

    @Option(
        help: ArgumentHelp("The source's key id (default: the destination's).", valueName: "id"))
    var fromKeyID: String?

    @Option(
        help: ArgumentHelp(
            "The source's PEM private key, mode 600 (default: the destination's).",
            valueName: "file"))
    var fromKeyFile: String?

    @Option(
        help: ArgumentHelp(
            "The source's environment, development or production (default: the destination's).",
            valueName: "name"))
    var fromEnvironment: String?

    @Option(
        name: .customLong("from-ck-base-url"),
        help: ArgumentHelp(
            "The source's Web Services base URL (default: the destination's).", valueName: "url"))
    var fromBaseURL: String?

    package init() {}

    package func validate() throws {
        try options.check(global: global)
        if fromContainer.isEmpty { throw ValidationError("--from-container needs a container id.") }
        if let fromEnvironment, CloudKitConfiguration.Environment(rawValue: fromEnvironment) == nil
        {
            throw ValidationError(
                "--from-environment takes development or production, got \(fromEnvironment).")
        }
    }


    /// The migration pipeline (SQLite, QR files) blocks: it runs on a thread of its own
    /// (`PipelineThread`).
    package func runPipeline() async throws {
        let context = CommandContext(options: global, label: "tribeboard.migrate")
        let destination = try MigrationRun.destinationClient(remoteOptions, context: context)
        var configuration = destination.configuration
        configuration.container = fromContainer
        configuration.database = .public
        if let fromKeyID { configuration.keyID = fromKeyID }
        if let fromKeyFile { configuration.keyFile = fromKeyFile }
        if let environment = fromEnvironment.flatMap(
            CloudKitConfiguration.Environment.init(rawValue:))
        {
            configuration.environment = environment
        }
        if let fromBaseURL { configuration.baseURL = fromBaseURL }
        if configuration.subpath("") == destination.configuration.subpath(""), configuration.baseURL == destination.configuration.baseURL {
            throw context.fail(CommandError.sourceIsDestination(container: fromContainer), MigrateCommand.exits)
        }
        let source: CloudKitClient
        do throws(CloudKitConfigurationError) {
            source = try CloudKitClient(configuration: configuration, logger: context.logger)
        } catch {
            throw context.fail(CommandError.source(error), MigrateCommand.exits)
        }
        try await MigrationRun(context: context, options: options).execute(
            options.request(.container, global: global),
            MigrationEndpoints(source: source, destination: destination))
    }
}
