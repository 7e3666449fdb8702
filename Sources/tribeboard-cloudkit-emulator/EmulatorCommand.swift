import ArgumentParser
import Foundation
import TribeBoardCloudKitEmulator
import TribeBoardVersion

/// `tribeboard-cloudkit-emulator`: CloudKit Web Services on 127.0.0.1, to rehearse a run.
@main
struct EmulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tribeboard-cloudkit-emulator",
        abstract:
            "Serve an emulation of CloudKit Web Services on 127.0.0.1 for tests and rehearsals.",
        discussion: """
            Requests to the public database must be signed with a registered key: --key \
            ID=PUBLIC.pem opens every container; --container \
            iCloud.X=ID:PUBLIC.pem[,ID2:PUBLIC2.pem] opens only that one (a request to another \
            container signed with it is AUTHENTICATION_FAILED). The public half is what the \
            CloudKit Dashboard registers: `openssl ec -in eckey.pem -pubout`. Point the toolkit at \
            it with --ck-base-url http://127.0.0.1:PORT. Stop it with Ctrl-C; with --data its \
            records (and schemas) are saved (at most a second behind) and loaded again on the next \
            start.
            Schemas: without --schema or --production-schema every type exists and every field is \
            queryable. With them, each container behaves like a real one: development starts with \
            --schema's types (a .ckdb file as `cktool import-schema` reads, or `empty`) and \
            creates types and fields on first write, without indexes; production holds only \
            --production-schema (what was deployed; `empty` by default) and refuses other writes. \
            Queries need QUERYABLE fields (an unfiltered one, ___recordID), sorts SORTABLE ones; a \
            missing type is BAD_REQUEST "Did not find record type: X". Security roles apply in \
            every mode: only a record's creator may change it (seed an app user's records with \
            --seed FILE, whose created.userRecordName names the user). Each key acts as its own \
            developer (_developer_ID). App users: --user _app_user_1=TOKEN signs a user in; a \
            request whose URL carries ?ckAPIToken=ANY&ckWebAuthToken=TOKEN (percent-encoded) acts \
            as that user, unsigned.
            Faults, as fractions of requests: --faults \
            503=0.1,503-bare=0.1,429=0.05,record-429=0.1,500=0.05,500-bare=0.01,drop=0.05,latency=20ms,retry-after=1,seed=7 \
            (503 and 429 carry a Retry-After header; 503-bare is that header with no body; \
            record-429 throttles single records of a records/modify with their own retryAfter; 500 \
            is INTERNAL_ERROR with retryAfter, 500-bare without it, which Apple calls \
            nonrecoverable); or --faults down, in which every connection is cut before a full \
            response.
            """,
        version: BuildInfo.versionLine)

    @Option(help: "Port on 127.0.0.1 (0 picks a free one).")
    var port: UInt16 = 8787

    @Option(
        name: .customLong("key"),
        help: ArgumentHelp(
            "A key valid in every container: KEY_ID=PUBLIC_KEY.pem (repeatable).",
            valueName: "id=file"))
    var keys: [String] = []

    @Option(
        name: .customLong("container"),
        help: ArgumentHelp(
            "A container and its own keys: iCloud.X=KEY_ID:PUBLIC_KEY.pem[,...] (repeatable).",
            valueName: "container=id:file"))
    var containers: [String] = []

    @Option(name: .customLong("user"),
            help: ArgumentHelp("An app user: requests with ?ckAPIToken=ANY&ckWebAuthToken=TOKEN act as USER_RECORD_NAME (repeatable).",
                               valueName: "name=token"))
    var users: [String] = []

    @Option(
        help: ArgumentHelp(
            "Development's schema at start: a .ckdb file, or `empty`; enforces schemas.",
            valueName: "file"))
    var schema: String?

    @Option(help: ArgumentHelp("Production's deployed schema: a .ckdb file, or `empty` (default when schemas are enforced).", valueName: "file"))
    var productionSchema: String?

    @Option(
        help: ArgumentHelp(
            "Records written earlier, by the developer or an app user (JSON, repeatable).",
            valueName: "file"))
    var seed: [String] = []

    @Flag(help: "Answer a create of a record name that exists with CONFLICT instead of EXISTS.")
    var conflictOnRepeatedCreate = false

    @Flag(help: "Answer a create of a name held by a record the caller may not change ACCESS_DENIED instead of EXISTS (or CONFLICT).")
    var accessDeniedOnForeignCreate = false

    @Option(help: ArgumentHelp("Seconds records/query lags behind writes, as a real container's index does (lookups and creates never lag).",
                               valueName: "seconds"))
    var indexLag: Double = 0

    @Option(
        help: ArgumentHelp("Keep records in this JSON file across restarts.", valueName: "file"))
    var data: String?

    @Option(help: ArgumentHelp("Faults to inject (see above).", valueName: "list"))
    var faults: String = ""

    @Option(
        help: "Largest accepted difference between a request's date and this clock, in seconds.")
    var maxClockSkew: Double = 300

    /// ArgumentParser's `main()`, with the package's form of error prefix, under this program's
    /// own name (`tribeboard-cloudkit-emulator: error: `, docs/errors.md "On stderr"), in place
    /// of its `Error: `: a log that holds both the emulator's and the toolkit's lines says which.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // Help, version and a status already reported (ExitCode) are ArgumentParser's to end.
            guard exitCode(for: error) != .success, !(error is ExitCode) else {
                exit(withError: error)
            }
            let message = fullMessage(for: error)
            let reason =
                message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
            FileHandle.standardError.write(Data((Self.errorPrefix + reason + "\n").utf8))
            Foundation.exit(exitCode(for: error).rawValue)
        }
    }

    /// `tribeboard-cloudkit-emulator: error: `, the level in red on a terminal unless NO_COLOR.
    static var errorPrefix: String {
        let colour =
            isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        return
            "\(configuration.commandName ?? "tribeboard-cloudkit-emulator"): \(colour ? "\u{1B}[31merror\u{1B}[0m" : "error"): "
    }

    func run() async throws {
        var options = CloudKitEmulator.Options()
        let keys: [EmulatorSetup.Key]
        let seeds: [EmulatorSetup.Seed]
        let appUsers: [EmulatorSetup.User]
        do {
            options.port = port
            options.dataFile = data
            guard maxClockSkew.isFinite, (0...86_400).contains(maxClockSkew) else {
                throw EmulatorError.badOption("--max-clock-skew takes 0 to 86400 seconds")
            }
            options.maxClockSkew = maxClockSkew
            options.faults = try EmulatorFaults.parse(faults)
            options.conflictOnRepeatedCreate = conflictOnRepeatedCreate
            options.accessDeniedOnForeignCreate = accessDeniedOnForeignCreate
            guard indexLag.isFinite, (0...3_600).contains(indexLag) else { throw EmulatorError.badOption("--index-lag takes 0 to 3600 seconds") }
            options.indexLag = indexLag
            if schema != nil || productionSchema != nil {
                let production = try productionSchema.map(EmulatorSetup.schema) ?? .empty
                // A development environment reset without an import holds what production has.
                options.schema = .enforced(development: try schema.map(EmulatorSetup.schema) ?? production, production: production)
            }
            keys =
                try self.keys.map(EmulatorSetup.key)
                + containers.flatMap(EmulatorSetup.containerKeys)
            seeds = try seed.map(EmulatorSetup.seed)
            appUsers = try users.map(EmulatorSetup.user)
        } catch {
            throw ValidationError(error.localizedDescription)
        }
        let emulator: CloudKitEmulator
        do {
            emulator = try await CloudKitEmulator.start(options)
        } catch let error as EmulatorStartError {
            // At once, naming the port (EX_UNAVAILABLE): not 30 silent seconds, then a timeout.
            FileHandle.standardError.write(
                Data((Self.errorPrefix + error.localizedDescription + "\n").utf8))
            throw ExitCode(69)
        }
        for key in keys { await emulator.registerKey(id: key.id, publicKeyPEM: key.publicKeyPEM, container: key.container) }
        for user in appUsers { await emulator.registerUser(user.userRecordName, webAuthToken: user.webAuthToken) }
        for seed in seeds {
            await emulator.seedRecords(
                seed.records, container: seed.container,
                environment: seed.environment ?? "development")
        }
        FileHandle.standardError.write(
            Data("tribeboard-cloudkit-emulator: listening on \(emulator.baseURL)\n".utf8))
        await SignalWait.untilTerminated()
        await emulator.stop()
        // What a Ctrl-C kept: the next start with the same --data finds it.
        if let data {
            FileHandle.standardError.write(
                Data("tribeboard-cloudkit-emulator: stopped; records saved in \(data)\n".utf8))
        } else {
            FileHandle.standardError.write(
                Data("tribeboard-cloudkit-emulator: stopped; nothing was saved (no --data)\n".utf8))
        }
    }
}
