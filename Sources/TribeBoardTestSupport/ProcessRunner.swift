import Foundation
import Synchronization

/// Runs the built executables (and other tools) the way an operator would.
package enum ProcessRunner {
    package struct Result: Sendable {
        package let status: Int32
        package let stdout: String
        package let stderr: String
    }

    /// The folder holding the built products: the test bundle sits beside the executables.
    package static var productsDirectory: String {
        if let override = ProcessInfo.processInfo.environment["TRIBEBOARD_BIN_DIR"] {
            return override
        }
        var url = URL(fileURLWithPath: CommandLine.arguments.first ?? ".")
            .deletingLastPathComponent()
        // From inside a .xctest bundle (macOS layout), step out of it.
        while url.pathExtension == "xctest" || url.lastPathComponent == "MacOS"
            || url.lastPathComponent == "Contents"
        {
            url.deleteLastPathComponent()
        }
        return url.path
    }

    package static func executable(_ name: String) -> String { "\(productsDirectory)/\(name)" }

    package static func run(_ path: String, _ arguments: [String], in directory: String? = nil,
                           environment: [String: String] = [:]) throws -> Result {
        let process = try start(path, arguments, in: directory, environment: environment)
        return process.wait()
    }

    /// Waits without blocking a thread: a test that serves the emulator in-process must leave the
    /// cooperative pool free to answer the child's requests.
    package static func runAsync(_ path: String, _ arguments: [String], in directory: String? = nil,
                                environment: [String: String] = [:]) async throws -> Result {
        let process = try start(path, arguments, in: directory, environment: environment)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            process.onExit { continuation.resume() }
        }
        return process.wait()
    }

    /// With `stdinPipe` the child reads a pipe whose write end only this process holds: the
    /// child sees end of file when `closeStdin()` or `stop` is called, or when this process dies.
    package static func start(_ path: String, _ arguments: [String], in directory: String? = nil,
                             environment: [String: String] = [:],
                             stdinPipe: Bool = false) throws -> RunningProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "TRIBEBOARD_STORE")
        environment.forEach { env[$0.key] = $0.value }
        process.environment = env
        let output = TemporaryOutput()
        process.standardOutput = output.stdoutHandle
        process.standardError = output.stderrHandle
        let pipe = stdinPipe ? Pipe() : nil
        if let pipe {
            // Other children started meanwhile must not inherit the write end and hold it open.
            _ = fcntl(pipe.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
            process.standardInput = pipe
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        try? pipe?.fileHandleForReading.close()
        return RunningProcess(process: process, output: output, stdin: pipe?.fileHandleForWriting)
    }
}

/// Output goes to files, not pipes, so a chatty child can never block on a full pipe.
final class TemporaryOutput: Sendable {
    let stdoutPath = NSTemporaryDirectory() + "tb-out-\(UUID().uuidString)"
    let stderrPath = NSTemporaryDirectory() + "tb-err-\(UUID().uuidString)"
    let stdoutHandle: FileHandle
    let stderrHandle: FileHandle

    init() {
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        stdoutHandle = FileHandle(forWritingAtPath: stdoutPath) ?? .nullDevice
        stderrHandle = FileHandle(forWritingAtPath: stderrPath) ?? .nullDevice
    }

    func collect() -> (String, String) {
        try? stdoutHandle.close()
        try? stderrHandle.close()
        defer {
            unlink(stdoutPath)
            unlink(stderrPath)
        }
        let out = (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        return (out, err)
    }
}

package final class RunningProcess: Sendable {
    let process: Process
    let output: TemporaryOutput
    let stdin: FileHandle?

    init(process: Process, output: TemporaryOutput, stdin: FileHandle? = nil) {
        self.process = process
        self.output = output
        self.stdin = stdin
    }

    package var pid: Int32 { process.processIdentifier }
    /// The file stdout goes to, to read what a server printed while it runs.
    package var stdoutPath: String { output.stdoutPath }

    /// Calls `handler` once the process has ended (at once if it already has).
    func onExit(_ handler: @escaping @Sendable () -> Void) {
        let fired = Atomic<Bool>(false)
        let fire: @Sendable () -> Void = {
            if !fired.exchange(true, ordering: .sequentiallyConsistent) { handler() }
        }
        process.terminationHandler = { _ in fire() }
        if !process.isRunning { fire() }
    }
    package var isRunning: Bool { process.isRunning }

    /// SIGKILL: the process gets no chance to clean up, as after a crash or an OOM kill.
    package func killHard() {
        kill(process.processIdentifier, SIGKILL)
    }

    /// Closes the write end of the child's stdin pipe (started with `stdinPipe`): end of file.
    package func closeStdin() {
        try? stdin?.close()
    }

    /// Ends the child and waits for it: end of file on its stdin and SIGTERM, then SIGKILL if it
    /// is still running after `grace` seconds. Returns once the child is reaped.
    @discardableResult
    package func stop(grace: Double = 1) -> ProcessRunner.Result {
        closeStdin()
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(grace)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning { killHard() }
        return wait()
    }

    package func wait() -> ProcessRunner.Result {
        process.waitUntilExit()
        let (out, err) = output.collect()
        return ProcessRunner.Result(status: process.terminationStatus, stdout: out, stderr: err)
    }
}
