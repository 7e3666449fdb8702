import Foundation
import Testing
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardCSV
@testable import TribeBoardProvisioning

/// A problem with the file as a whole stops the run before anything is provisioned from it.
@Suite("Provisioner: unusable input files")
struct ProvisionerInputErrorTests {
    /// Runs `bytes` as the CSV file and returns the input error the run stops with.
    func inputError(_ bytes: [UInt8], batchSize: Int? = nil) throws -> (CSVImportError?, ProvisionWorkspace) {
        let workspace = try ProvisionWorkspace()
        let path = workspace.folder.file("families.csv")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var request = ProvisionRequest(csvPath: path, storePath: workspace.storePath, outputDirectory: workspace.outputPath)
        if let batchSize { request.batchSize = batchSize }
        do {
            _ = try ProvisionWorkspace.waitFor { [request] () async throws(ProvisionError) in try await Provisioner(request: request, logger: TestLogger.quiet).run() }
            Issue.record("the run accepted the file")
            return (nil, workspace)
        } catch {
            guard case .input(let inputError) = error else {
                Issue.record("expected an input error, got \(error)")
                return (nil, workspace)
            }
            return (inputError, workspace)
        }
    }

    func familiesIn(_ workspace: ProvisionWorkspace) throws -> Int {
        FileManager.default.fileExists(atPath: workspace.storePath) ? try workspace.count("families") : 0
    }

    /// 300 good rows (more than one batch of 256), then `badLine`, then one more good row.
    static func rowsAround(_ badLine: [UInt8]) -> [UInt8] {
        let good = (1...300).map { "Family \($0)\n" }.joined()
        return Array("family_name\n\(good)".utf8) + badLine + Array("\nLast\n".utf8)
    }

    @Test func unterminatedQuoteStopsTheRunUpFront() throws {
        let (error, workspace) = try inputError(Self.rowsAround(Array("\"Open quote".utf8)))
        #expect(error == .unterminatedQuote(line: 302))
        #expect(try familiesIn(workspace) == 0)
    }

    @Test func invalidByteStopsTheRunUpFront() throws {
        let (error, workspace) = try inputError(Self.rowsAround(Array("Jo".utf8) + [0xFF] + Array("nes".utf8)))
        #expect(error == .invalidUTF8(line: 302))
        #expect(try familiesIn(workspace) == 0)
    }

    @Test func surrogateEncodedAsUTF8StopsTheRunUpFront() throws {
        // CESU-8, as some database exports write emoji: not UTF-8, and CSV.swift stops decoding there.
        let (error, workspace) = try inputError(Self.rowsAround(Array("Jo".utf8) + [0xED, 0xA0, 0xBD] + Array("nes".utf8)))
        let families = try familiesIn(workspace)
        #expect(error == .invalidUTF8(line: 302))
        #expect(families == 0)
    }

    @Test func missingFamilyNameColumnStopsTheRun() throws {
        let (error, workspace) = try inputError(Array("external_id,name\nE1,Smith\n".utf8))
        #expect(error == .missingColumnInHeader("family_name", header: ["external_id", "name"], delimiter: "comma"))
        #expect(!FileManager.default.fileExists(atPath: workspace.storePath))
        #expect(!FileManager.default.fileExists(atPath: workspace.outputPath))
    }
}
