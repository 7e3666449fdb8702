import Foundation

/// Beside the generator that enforces it, so the domain needs nothing from provisioning.
package enum ProvisionConfigurationError: Error, Equatable, LocalizedError {
    case invalidCodeLength(Int)

    package var errorDescription: String? {
        switch self {
        case .invalidCodeLength(let length):
            return "--code-length must be \(FamilyCode.allowedLengthsList), got \(length)"
        }
    }
}
