import ArgumentParser
import TribeBoardSupport

/// A command whose work blocks (SQLite, files, the pipelines that reach CloudKit through
/// `BlockingBridge`): `run()` awaits `runBlocking()` on a thread of its own, never on the
/// cooperative pool.
package protocol BlockingCommand: AsyncParsableCommand, Sendable {
    @available(*, noasync, message: "blocks its thread; await run()")
    func runBlocking() throws
}

extension BlockingCommand {
    package func run() async throws {
        let command = self
        try await DedicatedThread.run { () throws -> Void in try command.runBlocking() }
    }
}
