import ArgumentParser
import TribeBoardSupport

/// A command whose work blocks (SQLite, files, the CPU pipelines) and awaits CloudKit: `run()`
/// runs `runPipeline()` with a thread of its own as its executor, never on the cooperative pool.
package protocol PipelineCommand: AsyncParsableCommand, Sendable {
    func runPipeline() async throws
}

extension PipelineCommand {
    package func run() async throws {
        try await PipelineThread.run { () async throws -> Void in try await runPipeline() }
    }
}
