import Foundation

/// A remote that cannot be used as configured: nothing was sent.
package enum CloudKitConfigurationError: Error, Equatable, LocalizedError {
    case missing(String)
    case invalid(setting: String, value: String, expected: String)
    case keyFileUnreadable(path: String, reason: String)
    case keyFilePermissions(path: String, mode: mode_t)
    case invalidKey(reason: String)
    /// `line` is nil when the file as a whole is refused (missing, a folder, too large).
    case configFile(path: String, line: Int?, reason: String)

    package var errorDescription: String? {
        switch self {
        case .missing(let what):
            return "no \(what) is configured"
        case .invalid(let setting, let value, let expected):
            return "\(setting) \"\(value)\" is not valid: expected \(expected)"
        case .keyFileUnreadable(let path, let reason):
            return "cannot read the private key file \(path): \(reason)"
        case .keyFilePermissions(let path, let mode):
            return "the private key file \(path) can be read by other users (mode \(String(mode, radix: 8))); run `chmod 600 \(path)`"
        case .invalidKey(let reason):
            return "the private key cannot sign CloudKit requests: \(reason); create one with "
                + "`openssl ecparam -name prime256v1 -genkey -noout -out eckey.pem`"
        case .configFile(let path, let line?, let reason):
            return "\(path):\(line): \(reason)"
        case .configFile(let path, nil, let reason):
            return
                "the CloudKit settings file \(path) (--ck-config or TRIBEBOARD_CK_CONFIG) \(reason)"
        }
    }
}
