import Foundation
import TribeBoardCSV
import TribeBoardDomain
import TribeBoardStore
import TribeBoardSupport

/// What one provision run is asked to do.
package struct ProvisionRequest: Sendable {
    package var csvPath: String
    package var storePath: String
    package var outputDirectory: String
    package var codeLength = FamilyCodeGenerator.defaultLength
    package var qrScale = 8
    package var dryRun = false
    /// Failed rows logged as they happen (the summary lists them all): none when that summary is
    /// on the same terminal, so that a person sees each failure once.
    package var loggedFailures = Provisioner.loggedFailureLimit
    /// Leave out new families that match another on name and admin (default: create them, warned).
    package var skipPossibleDuplicates = false
    /// `--map`: headers named for the columns they feed.
    package var headerMapping = HeaderMapping()
    package var manifestFormat = ManifestFormat.input
    /// Rows per store transaction: large enough to amortize the commit, small enough that a
    /// concurrent run waits only briefly for the write lock.
    package var batchSize = 256

    package init(csvPath: String, storePath: String, outputDirectory: String) {
        self.csvPath = csvPath
        self.storePath = storePath
        self.outputDirectory = outputDirectory
    }
}

/// Failures that stop a whole run (a bad row never does).
package enum ProvisionError: Error, LocalizedError {
    case input(CSVImportError)
    case store(StoreError)
    case output(FileSystemError)
    case configuration(String)

    package var errorDescription: String? {
        switch self {
        case .input(let error): return error.localizedDescription
        case .store(let error): return error.localizedDescription
        case .output(let error): return error.localizedDescription
        case .configuration(let message): return message
        }
    }
}
