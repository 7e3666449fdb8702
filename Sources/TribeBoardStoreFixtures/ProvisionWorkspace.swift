import Foundation
import Synchronization
import TribeBoardSupport
import TribeBoardDomain
import TribeBoardProvisioning
import TribeBoardTestSupport

/// A folder with a store, an output folder and CSV files, and in-process provision runs against
/// them.
package struct ProvisionWorkspace {
    package let folder: TemporaryDirectory
    package var storePath: String { folder.file("store.sqlite") }
    package var outputPath: String { folder.file("out") }
    package var manifestPath: String { "\(outputPath)/manifest.csv" }

    package init() throws {
        folder = try TemporaryDirectory("provision")
    }

    @discardableResult
    package func run(
        _ csv: String, file: String = "families.csv", dryRun: Bool = false, batchSize: Int? = nil,
        source: any SecureRandomSource = SystemSecureRandomSource()
    ) throws -> ProvisionReport {
        var request = ProvisionRequest(
            csvPath: try folder.write(file, csv), storePath: storePath, outputDirectory: outputPath)
        request.dryRun = dryRun
        // A scripted source scripts codes of six characters, as the tests that use one spell them.
        if !(source is SystemSecureRandomSource) { request.codeLength = 6 }
        if let batchSize { request.batchSize = batchSize }
        let provisioner = Provisioner(
            request: request, logger: TestLogger.quiet, randomSource: source)
        return try Self.waitFor { () async throws(ProvisionError) in try await provisioner.run() }
    }

    package func manifest() throws -> [ManifestRow] { try ManifestFile.read(manifestPath) }

    package func inspector() throws -> StoreInspector { try StoreInspector(path: storePath) }

    package func count(_ table: String) throws -> Int {
        try inspector().count("SELECT COUNT(*) FROM \(table)")
    }

    /// Codes in the store by family name.
    package func codesByName() throws -> [String: String] {
        var codes: [String: String] = [:]
        for row in try inspector().rows("SELECT name, code FROM families") {
            codes[row["name"] ?? ""] = row["code"] ?? ""
        }
        return codes
    }

    package func qrPath(_ row: ManifestRow) -> String { "\(outputPath)/\(row.qrFile)" }

    package static func permissions(of path: String) -> Int? { FileMode.of(path) }

    /// A provision run waited for from synchronous test code (fixtures of other suites): the run
    /// awaits on a `PipelineThread` of its own, as the command's does; only the test blocks.
    package static func waitFor<Value: Sendable>(
        _ body: @escaping @Sendable () async throws(ProvisionError) -> Value
    ) throws(ProvisionError) -> Value {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Value, ProvisionError>?>(nil)
        _ = PipelineThread.startAsync(name: "tests.provision") {
            let result: Result<Value, ProvisionError>
            do throws(ProvisionError) { result = .success(try await body()) } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = outcome.withLock({ $0 }) else {
            throw .configuration("the test's provision run ended without an outcome")
        }
        return try result.get()
    }
}
