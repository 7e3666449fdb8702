import CSystemCalls
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where code generation gets its randomness. The system source can fail (the kernel may refuse
/// getrandom), and that failure must reach the retry logic instead of trapping the process, which
/// is what `SystemRandomNumberGenerator` would do.
package protocol SecureRandomSource: Sendable {
    func fill(_ buffer: inout [UInt8]) throws(RandomSourceError)
}

package struct RandomSourceError: Error, Equatable, LocalizedError {
    package let reason: String
    package init(reason: String) { self.reason = reason }
    package var errorDescription: String? { "the secure random source failed: \(reason)" }
}

/// The kernel's CSPRNG through getrandom(2).
package struct SystemSecureRandomSource: SecureRandomSource {
    package init() {}

    package func fill(_ buffer: inout [UInt8]) throws(RandomSourceError) {
        let status = buffer.withUnsafeMutableBytes { tb_secure_random($0.baseAddress, $0.count) }
        if status != 0 { throw RandomSourceError(reason: String(cString: strerror(status))) }
    }
}
