import Foundation
import TribeBoardCSV
import TribeBoardStore
import TribeBoardSupport

/// What one provision run is asked to do.
public struct ProvisionRequest: Sendable {
    public var csvPath: String
    public var storePath: String
    public var outputDirectory: String
    public var codeLength = 6
    public var qrScale = 8
    public var dryRun = false
    /// Rows per store transaction: large enough to amortize the commit, small enough that a
    /// concurrent run waits only briefly for the write lock.
    public var batchSize = 256

    public init(csvPath: String, storePath: String, outputDirectory: String) {
        self.csvPath = csvPath
        self.storePath = storePath
        self.outputDirectory = outputDirectory
    }
}

/// Failures that stop a whole run (a bad row never does).
public enum ProvisionError: Error, LocalizedError {
    case input(CSVImportError)
    case store(StoreError)
    case output(FileSystemError)
    case configuration(String)

    public var errorDescription: String? {
        switch self {
        case .input(let error): return error.localizedDescription
        case .store(let error): return error.localizedDescription
        case .output(let error): return error.localizedDescription
        case .configuration(let message): return message
        }
    }
}
