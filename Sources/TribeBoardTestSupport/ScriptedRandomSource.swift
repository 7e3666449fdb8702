import Foundation
import TribeBoardDomain

package final class ScriptedRandomSource: SecureRandomSource, @unchecked Sendable {
    package enum Step {
        case bytes([UInt8])
        case failure(String)
    }

    private let lock = NSLock()
    private var steps: [Step]
    private let afterScript: Step
    private var callTimes: [ContinuousClock.Instant] = []

    package init(_ steps: [Step], afterScript: Step = .failure("script exhausted")) {
        self.steps = steps
        self.afterScript = afterScript
    }

    /// The bytes that make the generator produce `code` (each byte is the symbol's alphabet index).
    package static func bytes(for code: String) -> [UInt8] {
        code.utf8.map { symbol in UInt8(FamilyCode.generatedAlphabet.firstIndex(of: symbol) ?? 255)
        }
    }

    package static func code(_ code: String) -> Step { .bytes(bytes(for: code)) }

    package var calls: [ContinuousClock.Instant] { lock.withLock { callTimes } }

    package func fill(_ buffer: inout [UInt8]) throws(RandomSourceError) {
        let step = lock.withLock { () -> Step in
            callTimes.append(.now)
            return steps.isEmpty ? afterScript : steps.removeFirst()
        }
        switch step {
        case .bytes(let bytes):
            for index in buffer.indices { buffer[index] = bytes[index % bytes.count] }
        case .failure(let reason):
            throw RandomSourceError(reason: reason)
        }
    }
}
