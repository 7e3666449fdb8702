import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardTestSupport

/// The stand-in is a child process: no test may leave one behind, holding a port and memory,
/// whether it passes, fails or throws. A Swift test spawns it from a thread that blocks every
/// signal, and a blocked mask survives exec: the stand-in must end anyway.
@Suite("Stand-in process lifecycle", .timeLimit(.minutes(1)))
struct StandInLifecycleTests {
    struct Thrown: Error {}

    /// True once /proc has no entry for the pid: ended and reaped, not left a zombie.
    static func gone(_ pid: Int32, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if !FileManager.default.fileExists(atPath: "/proc/\(pid)") { return true }
            usleep(10_000)
        } while Date() < deadline
        return false
    }

    /// The script alone, started the way a launcher may leave its signals, once it listens.
    static func script(_ launcher: [String], _ options: [String] = [],
                       stdinPipe: Bool = false) throws -> RunningProcess {
        let process = try ProcessRunner.start(
            "/usr/bin/env", launcher + ["python3", StandInServer.scriptPath, "--port", "0"] + options,
            stdinPipe: stdinPipe)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning {
            let text = (try? String(contentsOfFile: process.stdoutPath, encoding: .utf8)) ?? ""
            if text.hasPrefix("listening ") { return process }
            usleep(20_000)
        }
        process.killHard()
        throw StandInError.didNotStart(process.wait().stderr)
    }

    @Test func aStandInLeftAtTheEndOfAScopeIsGoneWithinASecond() throws {
        var pid: Int32 = 0
        do {
            let standIn = try StandInServer.start()
            pid = standIn.process.pid
            #expect(FileManager.default.fileExists(atPath: "/proc/\(pid)"))
        }
        #expect(Self.gone(pid, within: 1))
    }

    @Test func aTestThatThrowsLeavesNoStandIn() throws {
        var pid: Int32 = 0
        func failingTest() throws {
            let standIn = try StandInServer.start()
            pid = standIn.process.pid
            throw Thrown()
        }
        #expect(throws: Thrown.self) { try failingTest() }
        #expect(pid != 0)
        #expect(Self.gone(pid, within: 1))
    }

    @Test func stopReturnsOnceTheStandInIsGone() throws {
        let standIn = try StandInServer.start()
        standIn.stop()
        #expect(Self.gone(standIn.process.pid, within: 0))
        standIn.stop()
    }

    @Test(arguments: [(SIGTERM, "TERM"), (SIGINT, "INT")])
    func theScriptExitsOnASignalItsLauncherBlockedOrIgnored(signal: Int32, name: String) throws {
        for launcher in [[], ["--block-signal=\(name)"], ["--ignore-signal=\(name)"]] {
            let process = try Self.script(launcher)
            kill(process.pid, signal)
            let exited = Self.gone(process.pid, within: 1)
            #expect(exited, "SIG\(name) with env \(launcher)")
            let result = process.stop(grace: 0)
            if exited { #expect(result.status == 0, "\(result.stderr)") }
        }
    }

    @Test func theScriptExitsWhenItsStandardInputCloses() throws {
        // Blocked signals: only the end of file can end it.
        let process = try Self.script(["--block-signal=TERM,INT"], ["--exit-on-eof"], stdinPipe: true)
        process.closeStdin()
        #expect(Self.gone(process.pid, within: 1))
        process.stop(grace: 0)
    }
}
