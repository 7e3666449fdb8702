import Foundation
import Synchronization
import TribeBoardTestSupport
import Logging
import TribeBoardCloudKit

/// The independent CloudKit stand-in (`Tests/StandIn/cloudkit_standin.py`), written from Apple's
/// documentation without reading the emulator, running as a Python process on a free port.
/// Tests run the same flows against it and against the emulator: a mistake the client and the
/// emulator share shows up here. Its header lists what it models and what it does not.
package final class StandInServer: Sendable {
    package let process: RunningProcess
    package let port: Int
    package let keyID: String
    package let keyFile: String
    package let folder: TemporaryDirectory
    /// App users as `NAME=TOKEN`, in the order given.
    package let users: [(name: String, token: String)]
    private let stopped = Atomic<Bool>(false)

    package var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The script, found from this source file: the stand-in is test material, never installed.
    package static var scriptPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/StandIn/cloudkit_standin.py")
            .path
    }

    /// Starts the stand-in with one fresh server-to-server key (signatures verified with openssl),
    /// the given app users and any further options (`--index-lag 5`, `--create-existing CONFLICT`).
    package static func start(users: [String] = [], options: [String] = []) throws -> StandInServer
    {
        let folder = try TemporaryDirectory("standin")
        let keyFile = folder.file("eckey.pem")
        let publicFile = folder.file("eckey.pub.pem")
        let made = try ProcessRunner.run(
            "/usr/bin/openssl",
            ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", keyFile])
        let exported = try ProcessRunner.run(
            "/usr/bin/openssl", ["ec", "-in", keyFile, "-pubout", "-out", publicFile])
        guard made.status == 0, exported.status == 0 else {
            throw StandInError.noKey(made.stderr + exported.stderr)
        }
        chmod(keyFile, 0o600)
        let keyID = "standin-\(UUID().uuidString.prefix(8))"
        var arguments = [scriptPath, "--port", "0", "--key", "\(keyID)=\(publicFile)"]
        let pairs = users.map { entry -> (String, String) in
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            return (parts.first ?? entry, parts.count > 1 ? parts[1] : "")
        }
        for (name, token) in pairs { arguments += ["--user", "\(name)=\(token)"] }
        arguments += options + ["--exit-on-eof"]
        // A stdin pipe: the stand-in exits when the test run ends, however it ends.
        let process = try ProcessRunner.start("/usr/bin/env", ["python3"] + arguments, stdinPipe: true)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let text = (try? String(contentsOfFile: process.stdoutPath, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening ") }),
               let port = Int(line.dropFirst("listening ".count)) {
                return StandInServer(process: process, port: port, keyID: keyID, keyFile: keyFile,
                                     folder: folder, users: pairs)
            }
            if !process.isRunning { break }
            usleep(20_000)
        }
        throw StandInError.didNotStart(process.stop(grace: 0).stderr)
    }

    private init(process: RunningProcess, port: Int, keyID: String, keyFile: String,
                 folder: TemporaryDirectory, users: [(name: String, token: String)]) {
        self.process = process
        self.port = port
        self.keyID = keyID
        self.keyFile = keyFile
        self.folder = folder
        self.users = users
    }

    /// A test that throws or fails before its `stop()` still ends the stand-in here.
    deinit { stop() }

    /// Ends the stand-in and returns once it is gone (SIGKILL after a second); once is enough.
    package func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        process.stop(grace: 1)
    }

    package var configuration: CloudKitConfiguration {
        var configuration = CloudKitConfiguration()
        configuration.baseURL = baseURL
        configuration.keyID = keyID
        configuration.keyFile = keyFile
        return configuration
    }

    /// The command-line options that point a tribeboard command at the stand-in.
    package var remoteArguments: [String] {
        ["--key-id", keyID, "--key-file", keyFile, "--ck-base-url", baseURL]
    }

    package func client(policy: RetryPolicy = EmulatorFixture.quickRetries) throws -> CloudKitClient
    {
        let pem = try Data(contentsOf: URL(fileURLWithPath: keyFile))
        let signer = try CloudKitSigner(keyID: keyID, privateKeyPEM: Array(pem))
        return CloudKitClient(configuration: configuration, signer: signer, policy: policy,
                              logger: Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() })
    }
}

package enum StandInError: Error, CustomStringConvertible {
    case noKey(String)
    case didNotStart(String)

    package var description: String {
        switch self {
        case .noKey(let detail): "openssl could not make a key for the stand-in: \(detail)"
        case .didNotStart(let detail): "the CloudKit stand-in did not start (python3?): \(detail)"
        }
    }
}
