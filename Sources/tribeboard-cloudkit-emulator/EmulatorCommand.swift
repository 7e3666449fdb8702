import ArgumentParser
import Foundation
import TribeBoardCloudKitEmulator
import TribeBoardVersion

/// `tribeboard-cloudkit-emulator`: CloudKit Web Services on 127.0.0.1, to rehearse a run.
@main
struct EmulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tribeboard-cloudkit-emulator",
        abstract: "Serve an emulation of CloudKit Web Services on 127.0.0.1 for tests and rehearsals.",
        discussion: """
            Requests to the public database must be signed with a registered key (--key ID=PUBLIC.pem; \
            the public half, as registered in the CloudKit Dashboard: `openssl ec -in eckey.pem -pubout`). \
            Point the toolkit at it with --ck-base-url http://127.0.0.1:PORT. Stop it with Ctrl-C; \
            with --data its records are saved (at most a second behind) and loaded again on the next start.
            Faults, as fractions of requests: --faults 503=0.1,429=0.05,500=0.05,drop=0.05,latency=20ms,retry-after=1,seed=7; \
            or --faults down, in which every connection is cut before a full response.
            """,
        version: BuildInfo.versionLine)

    @Option(help: "Port on 127.0.0.1 (0 picks a free one).")
    var port: UInt16 = 8787

    @Option(name: .customLong("key"), help: ArgumentHelp("A registered key: KEY_ID=PUBLIC_KEY.pem (repeatable).", valueName: "id=file"))
    var keys: [String] = []

    @Option(help: ArgumentHelp("Keep records in this JSON file across restarts.", valueName: "file"))
    var data: String?

    @Option(help: ArgumentHelp("Faults to inject (see above).", valueName: "list"))
    var faults: String = ""

    @Option(help: "Largest accepted difference between a request's date and this clock, in seconds.")
    var maxClockSkew: Double = 300

    func run() async throws {
        var options = CloudKitEmulator.Options()
        options.port = port
        options.dataFile = data
        options.maxClockSkew = maxClockSkew
        do {
            options.faults = try EmulatorFaults.parse(faults)
        } catch {
            throw ValidationError(error.localizedDescription)
        }
        let emulator = try await CloudKitEmulator.start(options)
        for key in keys {
            let parts = key.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let pem = FileManager.default.contents(atPath: parts[1]) else {
                throw ValidationError("--key takes KEY_ID=PUBLIC_KEY.pem with a readable file, got \(key)")
            }
            await emulator.registerKey(id: parts[0], publicKeyPEM: Array(pem))
        }
        FileHandle.standardError.write(Data("tribeboard-cloudkit-emulator: listening on \(emulator.baseURL)\n".utf8))
        await Self.waitForTermination()
        await emulator.stop()
    }

    /// Ctrl-C or SIGTERM ends the emulator after saving its records.
    static func waitForTermination() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = ResumeOnce(continuation)
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler { resumed.resume() }
                source.resume()
                SignalSources.keep(source)
            }
        }
    }
}

/// Resumes a continuation at most once, whichever signal comes first.
final class ResumeOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?

    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }

    func resume() {
        lock.lock()
        let pending = continuation
        continuation = nil
        lock.unlock()
        pending?.resume()
    }
}

/// Signal sources live as long as the process.
enum SignalSources {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    static func keep(_ source: any DispatchSourceSignal) { sources.append(source) }
}
