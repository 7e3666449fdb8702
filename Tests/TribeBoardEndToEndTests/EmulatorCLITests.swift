import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardReportMirrors
import TribeBoardTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
import TribeBoardCloudKit
#endif

/// `tribeboard-cloudkit-emulator` as an operator starts it: containers with their own keys, a
/// schema file, and options it refuses with a message naming the problem.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct EmulatorCLITests {
    let emulator = ProcessRunner.executable("tribeboard-cloudkit-emulator")
    let tribeboard = ProcessRunner.executable("tribeboard")

    @Test func badOptionsExit64NamingTheProblem() throws {
        let directory = try TemporaryDirectory("emulator-cli-bad")
        let broken = try directory.write("broken.ckdb", "DEFINE SCHEMA\nRECORD TYPE Family (\n  code STRNG\n);\n")
        let cases: [([String], String)] = [
            (["--schema", "/nonexistent/schema.ckdb"], "/nonexistent/schema.ckdb"),
            (["--schema", broken], "line 3: unknown field type STRNG"),
            (["--container", "example.app=k:key.pem"], "iCloud.CONTAINER=KEY_ID:PUBLIC_KEY.pem"),
            (["--faults", "503-bare=2"], "between 0 and 1"),
            (["--seed", "/nonexistent/seed.json"], "/nonexistent/seed.json"),
            (["--user", "_app_user_1"], "--user takes USER_RECORD_NAME=WEB_AUTH_TOKEN"),
        ]
        for (arguments, message) in cases {
            let result = try ProcessRunner.run(emulator, arguments + ["--port", "0"])
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    /// The rehearsal recipes (docs/emulator.md, docs/migrate.md) use 8787: a second emulator there must say so at once, not hang.
    @Test func aPortInUseFailsAtOnceNamingIt() async throws {
        let first = try await EmulatorFixture.start()
        defer { Task { await first.emulator.stop() } }
        let port = try #require(first.emulator.baseURL.split(separator: ":").last.map(String.init))
        let started = ContinuousClock.now
        let second = try ProcessRunner.run(emulator, ["--port", port])
        #expect(second.status == 69, "\(second.stderr)")
        #expect(second.stderr.contains("127.0.0.1:\(port)") && second.stderr.contains("in use"), "\(second.stderr)")
        #expect(ContinuousClock.now - started < .seconds(10), "at once, not after the server's 30-second wait")
    }

    @Test func eachContainerOpensOnlyToItsOwnKeys() async throws {
        let directory = try TemporaryDirectory("emulator-cli-containers")
        try directory.write("in.csv", CSVFixtures.families(count: 5))
        var keys: [String] = []
        for name in ["own", "other"] {
            let key = directory.file("\(name).pem")
            try #require(try ProcessRunner.run("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key]).status == 0)
            try #require(try ProcessRunner.run("/usr/bin/openssl", ["ec", "-in", key, "-pubout", "-out", key + ".pub"]).status == 0)
            chmod(key, 0o600)
            keys.append(key)
        }
        let port = try Self.freePort()
        let server = try ProcessRunner.start(emulator, [
            "--port", "\(port)", "--schema", CloudKitEmulatorTemplate.path, "--production-schema", CloudKitEmulatorTemplate.path,
            "--container", "\(CloudKitConfiguration.defaultContainer)=own:\(keys[0]).pub",
            "--container", "iCloud.example.other=other:\(keys[1]).pub",
        ])
        defer {
            kill(server.pid, SIGTERM)
            _ = server.wait()
        }
        let baseURL = "http://127.0.0.1:\(port)"
        try await Self.waitUntilListening(baseURL)
        func doctorKeyCheck(_ keyID: String, _ key: String) async throws -> String? {
            let result = try await ProcessRunner.runAsync(tribeboard, ["doctor", "--json", "--key-id", keyID, "--key-file", key, "--ck-base-url", baseURL],
                                                          in: directory.path)
            return try result.report(DoctorReportMirror.self).checks.first { $0.id == "remote.key" }?.status
        }
        #expect(try await doctorKeyCheck("own", keys[0]) == "ok")
        #expect(try await doctorKeyCheck("other", keys[1]) == "failure", "another container's key is refused")
        let provision = try await ProcessRunner.runAsync(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--sync",
                                                                      "--key-id", "own", "--key-file", keys[0], "--ck-base-url", baseURL],
                                                         in: directory.path)
        #expect(provision.status == 0, "\(provision.stderr)")
    }

    /// `--data`: a burst of writes, then kill -9 once the save delay has passed (no write after
    /// the burst), or SIGTERM at once: the next start finds every record.
    @Test(arguments: [SIGKILL, SIGTERM]) func aBurstSurvivesAKill(signal: Int32) async throws {
        let directory = try TemporaryDirectory("emulator-cli-burst")
        let data = directory.file("emulator.json")
        func start() async throws -> (RunningProcess, CloudKitClient) {
            let port = try Self.freePort()
            let server = try ProcessRunner.start(emulator, ["--port", "\(port)", "--data", data, "--user", "_app_user_1=t+o/k=n"])
            try await Self.waitUntilListening("http://127.0.0.1:\(port)")
            let configuration = EmulatorFixture.configuration(baseURL: "http://127.0.0.1:\(port)", webAuthToken: "t+o/k=n")
            return (server, EmulatorFixture.client(configuration: configuration))
        }
        let (server, client) = try await start()
        let names = (0..<120).map { "F\($0)" }
        for first in stride(from: 0, to: names.count, by: 12) {
            let operations = names[first..<(first + 12)].map { CloudKitOperation(.create, CloudKitRecord(recordName: $0, recordType: "Family", fields: ["code": .string($0)])) }
            _ = try await client.modify(operations)
        }
        if signal == SIGKILL { try await Task.sleep(for: .milliseconds(2_500)) }
        kill(server.pid, signal)
        _ = server.wait()
        let (restarted, reader) = try await start()
        defer {
            kill(restarted.pid, SIGTERM)
            _ = restarted.wait()
        }
        let found = try await reader.lookup(recordNames: names)
        let saved = found.filter { if case .record = $0 { return true } else { return false } }
        #expect(saved.count == names.count)
    }

    static func waitUntilListening(_ baseURL: String) async throws {
        let url = try #require(URL(string: baseURL + "/"))
        for _ in 0..<200 {
            if (try? await URLSession.shared.data(from: url)) != nil { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the emulator did not start listening on \(baseURL)")
    }

    /// A port nothing listens on now: bound to 0, read back, closed.
    static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        try #require(bound)
        return UInt16(bigEndian: address.sin_port)
    }
}

/// Templates/cloudkit-schema.ckdb, for the command line.
enum CloudKitEmulatorTemplate {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Templates/cloudkit-schema.ckdb").path
}
