import Foundation
import TribeBoardSupport

package enum CodeGenerationError: Error, Equatable, LocalizedError {
    /// Every candidate was already taken.
    case noFreeCode(candidatesTried: Int)
    /// The random source kept failing after the retries.
    case randomSourceUnavailable(attempts: Int, reason: String)

    package var errorDescription: String? {
        switch self {
        case .noFreeCode(let tried):
            return "code generation failed: all \(tried) candidate codes were already taken"
        case .randomSourceUnavailable(let attempts, let reason):
            return "code generation failed after \(attempts) attempts: \(reason)"
        }
    }
}

/// Generates unique family codes (seed requirements 1.2, 2.2 and 2.4).
///
/// A collision regenerates at once; a failure of the random source is retried with exponential
/// backoff up to `retryDelays.count` times; past either limit the error is specific to code
/// generation.
package struct FamilyCodeGenerator: Sendable {
    /// New codes are 8 characters: against an adversary guessing codes by claim lookups, 6
    /// characters fall in minutes once a container holds thousands of families (the numbers are
    /// in docs/code-claims.md, "Against an adversary"). Codes of 6 or 7 already given stay valid.
    package static let defaultLength = 8

    package let length: Int
    let maxCandidates: Int
    let retryDelays: [Duration]
    private let source: any SecureRandomSource
    /// How a backoff is waited; tests record the waits instead of timing them.
    private let wait: @Sendable (Duration) -> Void

    package init(
        length: Int = defaultLength,
        maxCandidates: Int = 32,
        retryDelays: [Duration] = [.milliseconds(50), .milliseconds(100), .milliseconds(200)],
        source: any SecureRandomSource = SystemSecureRandomSource(),
        wait: @escaping @Sendable (Duration) -> Void = { Thread.sleep(forTimeInterval: $0.seconds) }
    ) throws(ProvisionConfigurationError) {
        guard FamilyCode.allowedLengths.contains(length) else { throw .invalidCodeLength(length) }
        self.length = length
        self.maxCandidates = maxCandidates
        self.retryDelays = retryDelays
        self.source = source
        self.wait = wait
    }

    /// Returns a code for which `isTaken` answered false.
    package func generate(isTaken: (FamilyCode) throws -> Bool) throws -> FamilyCode {
        for _ in 0..<maxCandidates {
            let candidate = try candidateWithRetries()
            if try !isTaken(candidate) { return candidate }
        }
        throw CodeGenerationError.noFreeCode(candidatesTried: maxCandidates)
    }

    private func candidateWithRetries() throws(CodeGenerationError) -> FamilyCode {
        var lastError = RandomSourceError(reason: "no attempt made")
        for attempt in 0...retryDelays.count {
            if attempt > 0 { wait(retryDelays[attempt - 1]) }
            do {
                return try candidate()
            } catch {
                lastError = error
            }
        }
        throw .randomSourceUnavailable(attempts: retryDelays.count + 1, reason: lastError.reason)
    }

    private func candidate() throws(RandomSourceError) -> FamilyCode {
        var bytes = [UInt8](repeating: 0, count: length)
        try source.fill(&bytes)
        let alphabet = FamilyCode.generatedAlphabet
        let characters = bytes.map { alphabet[Int($0 & 31)] }
        return FamilyCode(trusted: String(decoding: characters, as: UTF8.self))
    }
}
